
import { performance } from "node:perf_hooks";
import { shapes, STEPS } from "./linearProbe.ts";
const MB = 1024 * 1024;
for (const shape of shapes()) for (const size of [0.25, 0.5]) {
	const text = shape.make(size * MB);
	const row: string[] = [];
	for (const step of STEPS) { const t = performance.now(); step.run(text); row.push(`${step.name.split(" ")[0]} ${(performance.now() - t).toFixed(0)}`); }
	console.log(shape.name, size, row.join(" | "));
}
