import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/*
 * The spelling dictionary's index (server/ai/spellIndex.mjs), run as the worker runs it: an ES
 * module in node (jest would compile it to CommonJS). The corrections themselves are ai.test.ts's.
 */

const moduleUrl = new URL('./spellIndex.mjs', `file://${__dirname}/`).href;

/** Runs `body` in node with the module as `m` and the tiny dictionary below; answers what it printed (JSON). */
function run(body: string): unknown {
  const script = `
    import * as m from ${JSON.stringify(moduleUrl)};
    const dic = Buffer.from(['5', 'кот/A', 'кота', 'котёл/AB', 'ab-c', 'я/B', ''].join('\\n'));
    const stripsOf = new Map([['A', ['', 'т']], ['B', ['ёл']]]);
    ${body}`;
  return JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' }));
}

test('stems are found with their codes, and only whole stems; bases are what a rule of a stem strips', () => {
  const out = run(`
    const index = m.readIndex(m.buildIndex(dic, stripsOf));
    const words = ['кот', 'кота', 'котёл', 'ab-c', 'я', 'ко', 'котё', 'котёлы', 'а', '', 'ab', 'ab-cd'];
    console.log(JSON.stringify({ codes: words.map((w) => index.codesOf(w) ?? null), bases: ['ко', 'кот', 'котё', 'к', 'я'].map((b) => index.isBase(b)), stems: index.stems }));`);
  expect(out).toEqual({
    codes: ['A', '', 'AB', '', 'B', null, null, null, null, null, null, null],
    // «кот»/A strips «т» → «ко»; «котёл»/B strips «ёл» → «кот».
    bases: [true, true, false, false, false],
    stems: 5,
  });
});

test('the index is kept in its file: read when there, built again when missing or damaged, and still answers when it cannot be kept', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'spell-index-'));
  try {
    const file = path.join(dir, 'cache', 'ru.bin');
    const load = () => run(`const index = m.loadIndex(dic, stripsOf, ${JSON.stringify(file)}); console.log(JSON.stringify(index.codesOf('котёл') ?? null));`);
    expect(load()).toBe('AB');
    const kept = fs.readFileSync(file);
    expect(kept.subarray(0, 4).toString('latin1')).toBe('SPX1');
    // Read from the file: a changed entry in it is what is answered.
    const changed = Buffer.from(kept);
    const at = changed.indexOf(Buffer.from('котёл/AB', 'utf16le'));
    changed.write('BA', at + 'котёл/'.length * 2, 'utf16le');
    fs.writeFileSync(file, changed);
    expect(load()).toBe('BA');
    // Damaged (cut short): built again and kept again.
    fs.writeFileSync(file, kept.subarray(0, kept.length - 3));
    expect(load()).toBe('AB');
    expect(fs.readFileSync(file).equals(kept)).toBe(true);
    // A place that cannot be written: built each time, still answering.
    fs.rmSync(path.join(dir, 'cache'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'cache'), 'a file where the folder should be');
    expect(load()).toBe('AB');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
