import zlib from 'node:zlib';

/**
 * Zips that unpack to far more than they weigh (issue 33's zip bombs), made in a fraction of a
 * second: 64 MB of zeros are deflated once, ending on a full flush (nothing after it refers back
 * into it), and that run of bytes is repeated as often as wanted, then closed with an empty final
 * block — a real deflate stream that unpacks to every byte it says. CRCs are left 0 (the zip
 * reader checks none).
 */

const UNIT = 64 * 1024 * 1024;
let unit: Buffer | null = null;

/** Deflated bytes unpacking to `units` × 64 MB of zeros. */
export function deflatedZeros(units: number): Buffer {
  unit ??= deflateUnit();
  return Buffer.concat([...Array.from({ length: units }, () => unit!), Buffer.from([0x03, 0x00])]);
}

function deflateUnit(): Buffer {
  const deflate = zlib.deflateRawSync(Buffer.alloc(UNIT), { level: 9, finishFlush: zlib.constants.Z_FULL_FLUSH });
  return deflate;
}

/** A zip of `entries`, each deflated data (`data`) that unpacks to `size` bytes, as a zip's central directory says. */
export function zipOf(entries: Array<{ name: string; data: Buffer; size: number; method?: 0 | 8 }>): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, 'utf8');
    const method = entry.method ?? 8;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6); // UTF-8 names
    local.writeUInt16LE(method, 8);
    local.writeUInt32LE(entry.data.length, 18);
    local.writeUInt32LE(entry.size, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(method, 10);
    central.writeUInt32LE(entry.data.length, 20);
    central.writeUInt32LE(entry.size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, entry.data);
    centrals.push(central, name);
    offset += local.length + name.length + entry.data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}
