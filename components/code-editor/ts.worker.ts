// Monaco's TypeScript language worker (the TypeScript compiler: types, completion, hovers), bundled by the app: started from monaco-setup.ts.
import "monaco-editor/languages/features/typescript/ts.worker";
