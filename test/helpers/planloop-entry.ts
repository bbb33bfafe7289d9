/**
 * `planloop` as the README examples import it: the package entry, plus what this branch adds that
 * src/index.ts does not export yet (the lead adds it to the entry; then drop the line here).
 */
export * from '../../src/index.js';
export { toLangChainTool, type LangChainToolArgs, type LangChainToolRuntime } from '../../src/interop/tool-definitions.js';
