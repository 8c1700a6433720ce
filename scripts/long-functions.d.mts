/** A function of src/ and its length in lines (scripts/long-functions.mjs). */
export interface FunctionLength {
  file: string;
  line: number;
  name: string;
  lines: number;
}
export function functionsOf(path: string, root?: string): FunctionLength[];
export function longFunctions(dir?: string, max?: number): FunctionLength[];
