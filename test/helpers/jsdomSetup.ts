import { TextDecoder, TextEncoder } from 'node:util';

// jsdom leaves out a few web APIs that Node has and the router uses.
Object.assign(globalThis, { TextEncoder, TextDecoder });
