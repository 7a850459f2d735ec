import type { TcfListEntry } from '../../banner-config.ts';

/**
 * What the first layer names: stacks where they fit, the purposes and special features no chosen
 * stack covers by their own names. A stack fits when everything in it is asked for (a stack must
 * never suggest a purpose nobody pursues); chosen stacks never share a purpose or special
 * feature, so nothing is named twice. The largest fitting stack goes first, the lower id on a tie.
 */
export type FirstLayerItems = { stacks: TcfListEntry[]; purposes: number[]; specialFeatures: number[] };

export function firstLayerItems(stacks: Record<string, TcfListEntry>, purposes: Set<number>, specialFeatures: Set<number>): FirstLayerItems {
  const size = (stack: TcfListEntry) => (stack.purposes?.length ?? 0) + (stack.specialFeatures?.length ?? 0);
  const fitting = Object.values(stacks)
    .filter((stack) => size(stack) > 1)
    .filter((stack) => (stack.purposes ?? []).every((id) => purposes.has(id)) && (stack.specialFeatures ?? []).every((id) => specialFeatures.has(id)))
    .sort((a, b) => size(b) - size(a) || a.id - b.id);
  const coveredPurposes = new Set<number>();
  const coveredFeatures = new Set<number>();
  const chosen: TcfListEntry[] = [];
  for (const stack of fitting) {
    const overlaps = (stack.purposes ?? []).some((id) => coveredPurposes.has(id)) || (stack.specialFeatures ?? []).some((id) => coveredFeatures.has(id));
    if (overlaps) continue;
    chosen.push(stack);
    for (const id of stack.purposes ?? []) coveredPurposes.add(id);
    for (const id of stack.specialFeatures ?? []) coveredFeatures.add(id);
  }
  return {
    stacks: chosen.sort((a, b) => a.id - b.id),
    purposes: [...purposes].filter((id) => !coveredPurposes.has(id)).sort((a, b) => a - b),
    specialFeatures: [...specialFeatures].filter((id) => !coveredFeatures.has(id)).sort((a, b) => a - b),
  };
}
