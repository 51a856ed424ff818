// The Russian dictionary as the spelling worker reads it (server/ai/spellWorker.mjs): its stems with
// their suffix-rule codes, and the "bases" (what is left of a stem once one of its rules strips its
// end), each as one sorted list in one string, found by binary search. Built once from
// dictionary-ru — at install (`npm install` runs this file) or by the first worker that finds none
// — and kept in node_modules/.cache; loading it is reading a file (~20 ms, a few MB), where
// building maps of the 146 k stems took ~0.5 s and ~30 MB in the worker.
//
// The file: "SPX1", then four u32 (little-endian): stems, bases, the stems' text length, the
// bases' text length (in UTF-16 code units); the stems' offsets (u32 in the machine's byte order:
// the file is this install's, stems + 1), the bases' offsets (bases + 1); then the two texts in
// UTF-16LE. A stem's entry is `stem/CODES`.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const MAGIC = 'SPX1';
const HEADER = 20;

/** The file the index of dictionary-ru `version` is kept in. */
export function indexFile(version) {
  return fileURLToPath(new URL(`../../node_modules/.cache/workspace-spell/ru-${version}-${MAGIC}.bin`, import.meta.url));
}

/** Sorted (by code unit, as `<` compares strings) strings as offsets into one text. */
function packed(strings) {
  const offsets = new Uint32Array(strings.length + 1);
  let length = 0;
  strings.forEach((s, i) => {
    offsets[i] = length;
    length += s.length;
  });
  offsets[strings.length] = length;
  return { offsets, text: strings.join('') };
}

/**
 * The index of `dic` (dictionary-ru's .dic) for the suffix rules of `stripsOf` (a rule code → the
 * texts its entries strip off a stem), as the file's bytes.
 */
export function buildIndex(dic, stripsOf) {
  const stems = new Map();
  // The .dic: a count, then a stem a line, `stem/CODES` (dictionary-ru has no comments or escapes).
  for (const line of new TextDecoder().decode(dic).split('\n').slice(1)) {
    const slash = line.indexOf('/');
    const stem = (slash < 0 ? line : line.slice(0, slash)).trim();
    if (!stem) continue;
    stems.set(stem, (stems.get(stem) ?? '') + (slash < 0 ? '' : line.slice(slash + 1).trim()));
  }
  const bases = new Set();
  for (const [stem, codes] of stems) {
    for (const code of codes) {
      for (const strip of stripsOf.get(code) ?? []) if (strip && stem.endsWith(strip)) bases.add(stem.slice(0, stem.length - strip.length));
    }
  }
  const stemList = [...stems.keys()].sort();
  const stemPack = packed(stemList.map((stem) => `${stem}/${stems.get(stem)}`));
  const basePack = packed([...bases].sort());
  const head = Buffer.alloc(HEADER);
  head.write(MAGIC, 0, 'latin1');
  head.writeUInt32LE(stemList.length, 4);
  head.writeUInt32LE(basePack.offsets.length - 1, 8);
  head.writeUInt32LE(stemPack.text.length, 12);
  head.writeUInt32LE(basePack.text.length, 16);
  return Buffer.concat([
    head,
    Buffer.from(stemPack.offsets.buffer),
    Buffer.from(basePack.offsets.buffer),
    Buffer.from(stemPack.text, 'utf16le'),
    Buffer.from(basePack.text, 'utf16le'),
  ]);
}

/** The file's bytes as lookups: a stem's codes (undefined when it is none), whether a text is a base. */
export function readIndex(bytes) {
  if (bytes.length < HEADER || bytes.toString('latin1', 0, 4) !== MAGIC) throw new Error('not a spelling index');
  const stems = bytes.readUInt32LE(4);
  const bases = bytes.readUInt32LE(8);
  const stemChars = bytes.readUInt32LE(12);
  const baseChars = bytes.readUInt32LE(16);
  let at = HEADER;
  const words = (count) => {
    // Copied whole (the buffer's own bytes may not be aligned for a Uint32Array).
    const offsets = new Uint32Array(count + 1);
    new Uint8Array(offsets.buffer).set(bytes.subarray(at, (at += offsets.byteLength)));
    return offsets;
  };
  const stemOffsets = words(stems);
  const baseOffsets = words(bases);
  const stemText = bytes.toString('utf16le', at, (at += stemChars * 2));
  const baseText = bytes.toString('utf16le', at, (at += baseChars * 2));
  if (at !== bytes.length || stemOffsets[stems] !== stemChars || baseOffsets[bases] !== baseChars) throw new Error('a damaged spelling index');

  /** The entry of `word` in a packed list (its end at `stop`, a code unit, when given), or -1. */
  function find(text, offsets, count, word, stop) {
    let low = 0;
    let high = count - 1;
    while (low <= high) {
      const middle = (low + high) >>> 1;
      const start = offsets[middle];
      const end = offsets[middle + 1];
      // Compares the entry's key with `word` as `<` would: a key that is a prefix of the other is smaller.
      let order;
      for (let i = 0; ; i++) {
        const c = start + i < end ? text.charCodeAt(start + i) : -1;
        const keyEnded = c === -1 || c === stop;
        if (i === word.length) {
          order = keyEnded ? 0 : 1;
          break;
        }
        if (keyEnded) {
          order = -1;
          break;
        }
        const w = word.charCodeAt(i);
        if (c !== w) {
          order = c - w;
          break;
        }
      }
      if (order === 0) return middle;
      if (order < 0) low = middle + 1;
      else high = middle - 1;
    }
    return -1;
  }

  return {
    /** The rule codes of a stem (a letter each; '' for none), or undefined when it is not one. */
    codesOf(word) {
      const i = find(stemText, stemOffsets, stems, word, 47 /* '/' */);
      return i < 0 ? undefined : stemText.slice(stemOffsets[i] + word.length + 1, stemOffsets[i + 1]);
    },
    isBase(text) {
      return find(baseText, baseOffsets, bases, text, -2) >= 0;
    },
    stems,
  };
}

/**
 * The dictionary's suffix rules as nspell parsed its .aff (`spell.rules`, `spell.flags`): a
 * suffix's text → what the rules adding it strip from a stem → the rule codes → their conditions
 * (`byAdd`); a rule code → the texts its entries strip (`stripsOf`). Throws on what this reading of
 * the dictionary does not know (dictionary-ru has suffix rules only, no prefixes, continuation
 * classes or special flags).
 */
export function suffixRules(spell) {
  const { rules, flags } = spell;
  if (flags.FLAG) throw new Error(`the dictionary has FLAG ${flags.FLAG} (only one-letter rule codes are read)`);
  // A derived form gets no codes here, as in nspell; a flag that holds for forms would differ.
  for (const name of ['NEEDAFFIX', 'FORBIDDENWORD', 'ONLYINCOMPOUND', 'NOSUGGEST', 'WARN']) {
    if (name in flags) throw new Error(`the dictionary has ${name} (not read)`);
  }
  if (flags.KEEPCASE) throw new Error('the dictionary has KEEPCASE (not read)');
  if (spell.compoundRules.length) throw new Error('the dictionary has compound rules (not read)');
  /** A suffix's text → what the rules adding it strip from a stem → the rule codes → their conditions. */
  const byAdd = new Map();
  /** A rule code → the texts its entries strip. */
  const stripsOf = new Map();
  for (const [code, rule] of Object.entries(rules)) {
    if (rule.type !== 'SFX') throw new Error(`the dictionary has a ${rule.type} rule (only suffixes are read)`);
    const strips = new Set();
    for (const entry of rule.entries) {
      if (entry.continuation.length) throw new Error('the dictionary has a suffix rule with continuation classes');
      const strip = entry.remove ? entry.remove.source.slice(0, -1) : '';
      if (/[^\p{L}]/u.test(strip)) throw new Error(`the dictionary has a suffix rule stripping a pattern: ${strip}`);
      strips.add(strip);
      if (!byAdd.has(entry.add)) byAdd.set(entry.add, new Map());
      const byStrip = byAdd.get(entry.add);
      if (!byStrip.has(strip)) byStrip.set(strip, new Map());
      const byCode = byStrip.get(strip);
      if (!byCode.has(code)) byCode.set(code, []);
      byCode.get(code).push(entry.match || null);
    }
    stripsOf.set(code, [...strips]);
  }
  return { byAdd, stripsOf };
}

/** The version of dictionary-ru installed. */
export function dictionaryVersion() {
  const file = fileURLToPath(new URL('../../node_modules/dictionary-ru/package.json', import.meta.url));
  return JSON.parse(fs.readFileSync(file, 'utf8')).version;
}

/** Writes the index where `indexFile` says, whole or not at all. */
export function keepIndex(file, bytes) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const partial = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(partial, bytes);
  fs.renameSync(partial, file);
}

/**
 * The dictionary's index: read from `file` (kept at install or by an earlier worker), else — none
 * there, or damaged — built from `dic` and kept there when it can be (a read-only install builds
 * it each time).
 */
export function loadIndex(dic, stripsOf, file = indexFile(dictionaryVersion())) {
  try {
    return readIndex(fs.readFileSync(file));
  } catch {
    const bytes = buildIndex(dic, stripsOf);
    try {
      keepIndex(file, bytes);
    } catch {
      // Not writable: built again by the next worker.
    }
    return readIndex(bytes);
  }
}

// `node server/ai/spellIndex.mjs` (npm's postinstall): builds and keeps the index. Never fails the
// install: without it the first spelling worker builds it.
if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  try {
    const [{ default: nspell }, { default: dictionary }] = await Promise.all([import('nspell'), import('dictionary-ru')]);
    const file = indexFile(dictionaryVersion());
    keepIndex(file, buildIndex(dictionary.dic, suffixRules(nspell({ aff: dictionary.aff })).stripsOf));
    process.stdout.write(`spelling index: ${path.relative(process.cwd(), file)}\n`);
  } catch (error) {
    process.stdout.write(`spelling index not built (the first «Улучшить» builds it): ${error?.message ?? error}\n`);
  }
}
