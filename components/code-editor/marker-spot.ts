/** A marker in Monaco's shape (1-based lines and columns), built without Monaco so it can be tested alone. */
export interface MarkerSpot {
  startLineNumber: number;
  startColumn: number;
  endLineNumber: number;
  endColumn: number;
  message: string;
}
