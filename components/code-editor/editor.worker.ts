// Monaco's editor worker (diffs, links, word ranges), bundled by the app: started from monaco-setup.ts.
import "monaco-editor/editor/editor.worker";
