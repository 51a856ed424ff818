import fs from 'node:fs';
import path from 'node:path';
import { VERSION_LABEL } from './constants';

test("the build label served at /version is package.json's version (the spec's v2510.17: its major and minor)", () => {
  const { version } = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'package.json'), 'utf8')) as { version: string };
  const [major, minor] = version.split('.');
  expect(VERSION_LABEL).toBe(`v${major}.${minor}`);
});
