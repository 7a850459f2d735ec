import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The house has no circle (docs/ARCHITECTURE.md): no module reaches itself through its imports,
 * and the folders the code is made of depend on each other in one direction only. ESLint's
 * import rules say which folder may import which; this says there is no loop at all.
 */

const ROOT = normalize(join(import.meta.dirname, '..'));
const SOURCES = ['src', 'rest-adapter'];

function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

const IMPORT = /^(?:import|export)\s[^;]*?\sfrom\s+'(\.{1,2}\/[^']+)'|^import\s+'(\.{1,2}\/[^']+)'/gm;

/** Every relative import (type-only ones too) of every module of the service. */
function importGraph(): Map<string, string[]> {
  const files = SOURCES.flatMap(sourceFiles);
  const known = new Set(files);
  return new Map(
    files.map((file) => {
      const text = readFileSync(join(ROOT, file), 'utf8');
      const targets = [...text.matchAll(IMPORT)].map((match) => normalize(join(dirname(file), match[1] ?? match[2]!)));
      return [file, targets.filter((target) => known.has(target))];
    }),
  );
}

/** The folder a module belongs to, as the layers of docs/ARCHITECTURE.md name them. */
function layerOf(file: string): string {
  const parts = relative(ROOT, join(ROOT, file)).split('/');
  if (parts[0] === 'rest-adapter') return 'rest-adapter';
  if (parts.length === 2) return parts[1] === 'main.ts' ? 'entry' : 'src (shared leaves)';
  if (parts[1] === 'features') {
    if (parts.length === 3) return parts[2] === 'index.ts' ? 'features (registry)' : 'features (shape)';
    return `features/${parts[2]}`;
  }
  return parts[1]!;
}

/** Each cycle found by a depth-first walk, as the path that closes it. */
function cyclesOf(graph: Map<string, Iterable<string>>): string[][] {
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const cycles: string[][] = [];
  const visit = (node: string) => {
    state.set(node, 'open');
    path.push(node);
    for (const next of graph.get(node) ?? []) {
      if (state.get(next) === 'open') cycles.push([...path.slice(path.indexOf(next)), next]);
      else if (!state.has(next)) visit(next);
    }
    path.pop();
    state.set(node, 'done');
  };
  for (const node of graph.keys()) if (!state.has(node)) visit(node);
  return cycles;
}

describe('the house has no circle', () => {
  const graph = importGraph();

  it('reads the modules it checks (a wrong root would check nothing)', () => {
    expect(graph.size).toBeGreaterThan(50);
    expect(graph.get('src/app/http-app.ts')).toContain('rest-adapter/router.ts');
  });

  it('has no module that reaches itself through its imports', () => {
    expect(cyclesOf(graph).map((cycle) => cycle.join(' → '))).toEqual([]);
  });

  it('has folders that depend on each other in one direction only', () => {
    const layers = new Map<string, Set<string>>();
    for (const [file, targets] of graph) {
      const from = layerOf(file);
      const edges = layers.get(from) ?? new Set<string>();
      layers.set(from, edges);
      for (const target of targets) if (layerOf(target) !== from) edges.add(layerOf(target));
    }
    expect(cyclesOf(layers).map((cycle) => cycle.join(' → '))).toEqual([]);
  });

  it('keeps the kernel free of features and front doors', () => {
    const outside = [...graph]
      .filter(([file]) => layerOf(file) === 'kernel')
      .flatMap(([file, targets]) => targets.filter((target) => layerOf(target) !== 'kernel').map((target) => `${file} → ${target}`));
    expect(outside).toEqual([]);
  });
});
