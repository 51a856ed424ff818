/**
 * Compares two V8 heap snapshots (`.heapsnapshot`, e.g. the two `BENCH_SOAK_SNAPSHOTS=1` of
 * `npm run bench:soak` writes): objects counted and their own sizes summed by constructor (node
 * type and name), the groups that grew most between them, by size and by count.
 *   node --max-old-space-size=4096 test/bench/heapDiff.mjs before.heapsnapshot after.heapsnapshot [top]
 */
import fs from 'node:fs';

function groups(file) {
  const snapshot = JSON.parse(fs.readFileSync(file, 'utf8'));
  const fields = snapshot.snapshot.meta.node_fields;
  const types = snapshot.snapshot.meta.node_types[0];
  const width = fields.length;
  const typeAt = fields.indexOf('type');
  const nameAt = fields.indexOf('name');
  const sizeAt = fields.indexOf('self_size');
  const { nodes, strings } = snapshot;
  const byKey = new Map();
  for (let i = 0; i < nodes.length; i += width) {
    const type = types[nodes[i + typeAt]];
    // Strings and code by type alone (their names are their contents); objects by constructor.
    const name = type === 'object' || type === 'closure' || type === 'native' ? strings[nodes[i + nameAt]].slice(0, 80) : '';
    const key = `${type} ${name}`;
    const group = byKey.get(key) ?? { count: 0, size: 0 };
    group.count += 1;
    group.size += nodes[i + sizeAt];
    byKey.set(key, group);
  }
  return byKey;
}

const [beforeFile, afterFile, topArg] = process.argv.slice(2);
const top = Number(topArg ?? 25);
const before = groups(beforeFile);
const after = groups(afterFile);
const total = (map) => [...map.values()].reduce((sum, g) => sum + g.size, 0);
const rows = [...new Set([...before.keys(), ...after.keys()])].map((key) => {
  const b = before.get(key) ?? { count: 0, size: 0 };
  const a = after.get(key) ?? { count: 0, size: 0 };
  return { key, countBefore: b.count, countAfter: a.count, dCount: a.count - b.count, dKb: Math.round((a.size - b.size) / 1024) };
});
const mb = (bytes) => (bytes / 1024 / 1024).toFixed(1);
process.stdout.write(`self sizes: ${mb(total(before))} MB → ${mb(total(after))} MB\n`);
for (const [title, order] of [
  ['grew most by size (KB)', (x, y) => y.dKb - x.dKb],
  ['grew most by count', (x, y) => y.dCount - x.dCount],
]) {
  process.stdout.write(`\n${title}\n| group | count before | count after | Δ count | Δ KB |\n|---|---|---|---|---|\n`);
  for (const row of [...rows].sort(order).slice(0, top))
    process.stdout.write(`| ${row.key} | ${row.countBefore} | ${row.countAfter} | ${row.dCount} | ${row.dKb} |\n`);
}
