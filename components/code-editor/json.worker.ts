// Monaco's JSON language worker (syntax and schema validation, completion), bundled by the app: started from monaco-setup.ts.
import "monaco-editor/languages/features/json/json.worker";
