// Packages a README block imports that are not installed here, declared as planloop reads them, so
// the block compiles as written (test/readme-code.test.ts). Keep each to what the README uses.

declare module '@mlc-ai/web-llm' {
  /** WebLLM's engine factory; the engine is typed as `createWebLLMProvider` reads it. */
  export function CreateMLCEngine(modelId: string): Promise<import('planloop').WebLLMEngine>;
}
