// Runs npm scripts at the same time (`node scripts/parallel.mjs typecheck lint`): on two cores the
// type check and the typed lint, each single-threaded, take the time of the longer one. Each
// script's output is printed whole when it ends, in the order given; any failure fails the run.
import { spawn } from "node:child_process";
import process from "node:process";

const names = process.argv.slice(2);
const windows = process.platform === "win32";
const runs = names.map(
	(name) =>
		new Promise((resolve) => {
			const child = spawn(windows ? "npm.cmd" : "npm", ["run", name], { shell: windows });
			const out = [];
			child.stdout.on("data", (chunk) => out.push(chunk));
			child.stderr.on("data", (chunk) => out.push(chunk));
			child.on("error", (err) => resolve({ name, code: 1, out: [Buffer.from(`${String(err)}\n`)] }));
			child.on("close", (code) => resolve({ name, code: code ?? 1, out }));
		}),
);
let failed = 0;
for (const run of runs) {
	const { name, code, out } = await run;
	process.stdout.write(Buffer.concat(out));
	if (code !== 0) {
		console.error(`npm run ${name} failed (exit code ${code}).`);
		failed++;
	}
}
process.exit(failed > 0 ? 1 : 0);
