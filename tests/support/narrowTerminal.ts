// Preloaded (node --import) into the terminal chat by its tests: stdout claims to be a terminal 24
// columns wide, so word wrapping can be checked without a real terminal. Input stays a pipe.
Object.defineProperty(process.stdout, "isTTY", { value: true });
Object.defineProperty(process.stdout, "columns", { value: 24 });
export {};
