import { builtinPresets } from '../../src/features/catalog/builtin.ts';

/** The built-in preset named `name`; throws when the catalog has none of that name (a renamed preset fails loudly). */
export function builtinPreset(name: string) {
  const found = builtinPresets.find((candidate) => candidate.name === name);
  if (!found) throw new Error(`no built-in preset named ${name}`);
  return found;
}
