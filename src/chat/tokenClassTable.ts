// The token estimator's classes with the class table as a value, built when this module runs: for
// the tests and scripts/fit-token-model.ts. The plugin imports tokenClasses.ts, whose table is built
// on the first estimate, so that the plugin's load does not pay for it.
import { classTable } from "./tokenClasses";

export * from "./tokenClasses";

/** Class of every UTF-16 code unit (the same table as classTable()). */
export const CLASS_TABLE: Uint8Array = classTable();
