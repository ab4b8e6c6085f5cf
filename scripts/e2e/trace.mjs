// A Chromium trace of the page's main thread, and the CPU profile printed with E2E_PROFILE.

export async function startTrace(cdp) {
	const events = [];
	cdp.on("Tracing.dataCollected", (e) => events.push(...e.value));
	await cdp.send("Tracing.start", { categories: "devtools.timeline,v8.gc,disabled-by-default-devtools.timeline", transferMode: "ReportEvents" });
	return events;
}

/** Ends a trace started by startTrace and returns its events. */
export async function endTrace(cdp, events) {
	const done = new Promise((resolve) => cdp.once("Tracing.tracingComplete", resolve));
	await cdp.send("Tracing.end");
	await done;
	return events;
}

/**
 * The page's main-thread tasks from a trace: CPU time (`tdur`), wall time, and whether the
 * plugin's own code ran in them (a call into a function of main.js), with what took longest.
 */
export function panelTasks(events) {
	const isPlugin = (e) => /\/main\.js(?:$|[?#])/.test(e.args?.data?.url ?? "") || (e.args?.data?.stackTrace ?? []).some((f) => /\/main\.js(?:$|[?#])/.test(f.url ?? ""));
	const pluginCalls = events.filter((e) => e.ph === "X" && isPlugin(e));
	const mainThreads = new Set(pluginCalls.map((e) => `${e.pid}:${e.tid}`));
	const tasks = events.filter((e) => e.name === "RunTask" && e.ph === "X" && mainThreads.has(`${e.pid}:${e.tid}`) && (e.dur ?? 0) > 5000);
	return tasks.map((t) => {
		const inside = events.filter((e) => e.pid === t.pid && e.tid === t.tid && e.ph === "X" && e.ts >= t.ts && e.ts + (e.dur ?? 0) <= t.ts + t.dur && e.name !== "RunTask");
		const by = new Map();
		for (const e of inside) by.set(e.name, (by.get(e.name) ?? 0) + (e.tdur ?? e.dur) / 1000);
		const top = [...by].sort((a, b) => b[1] - a[1]).slice(0, 4).map(([k, v]) => `${k} ${v.toFixed(0)}`).join(", ");
		return { cpuMs: (t.tdur ?? t.dur) / 1000, wallMs: t.dur / 1000, panel: inside.some(isPlugin), top };
	});
}

export function printProfile(profile) {
	const byId = new Map(profile.nodes.map((n) => [n.id, n]));
	const self = new Map();
	const dt = profile.timeDeltas;
	profile.samples.forEach((id, i) => {
		const n = byId.get(id);
		const key = `${n.callFrame.functionName || "(anon)"} ${n.callFrame.url.split("/").pop()}:${n.callFrame.lineNumber}`;
		self.set(key, (self.get(key) ?? 0) + (dt[i] ?? 0) / 1000);
	});
	for (const [k, ms] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log(`  profile ${ms.toFixed(0).padStart(6)} ms  ${k}`);
	// The busiest 60 ms: what a long task was made of.
	const times = [];
	let t = profile.startTime;
	profile.samples.forEach((id, i) => {
		t += dt[i] ?? 0;
		times.push([t / 1000, byId.get(id)]);
	});
	let best = [0, 0];
	for (let i = 0, j = 0, busy = 0; i < times.length; i++) {
		if (!["(idle)"].includes(times[i][1].callFrame.functionName)) busy += dt[i] / 1000;
		while (times[i][0] - times[j][0] > 60) {
			if (!["(idle)"].includes(times[j][1].callFrame.functionName)) busy -= dt[j] / 1000;
			j++;
		}
		if (busy > best[0]) best = [busy, j];
	}
	const win = new Map();
	for (let k = best[1]; k < times.length && times[k][0] - times[best[1]][0] <= 60; k++) {
		const n = times[k][1];
		const key = `${n.callFrame.functionName || "(anon)"} ${n.callFrame.url.split("/").pop()}:${n.callFrame.lineNumber}`;
		win.set(key, (win.get(key) ?? 0) + dt[k] / 1000);
	}
	console.log(`  busiest 60 ms window: ${best[0].toFixed(0)} ms busy`);
	for (const [k, ms] of [...win].sort((a, b) => b[1] - a[1]).slice(0, 10)) console.log(`    ${ms.toFixed(1).padStart(6)} ms  ${k}`);
}
