'use strict';
/**
 * Jest transformer for slate-react/dist/index.es.js (jest.config.js maps `slate-react` to that
 * file): applies the same chunk patch as the Vite build (server/web/slateReactChunkPatch.cjs),
 * then swc turns the module into CommonJS. Tests thus run the slate-react the app ships; a
 * slate-react the patch does not fit fails every suite that loads it, with the patch's message.
 */
const { createTransformer: createSwc } = require('@swc/jest');
const { patchSlateReact } = require('../../server/web/slateReactChunkPatch.cjs');

module.exports = {
  createTransformer(options) {
    const swc = createSwc(options);
    return {
      process: (source, filename, jestOptions) => swc.process(patchSlateReact(source, filename), filename, jestOptions),
      getCacheKey: (source, filename, jestOptions) => swc.getCacheKey(patchSlateReact(source, filename), filename, jestOptions),
    };
  },
};
