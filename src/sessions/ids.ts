/**
 * Time-sortable ids: 9 base-36 digits of milliseconds since the epoch (sorts correctly until
 * the year 5188), a per-process sequence for ids made in the same millisecond, and random
 * digits so two devices sharing a vault through sync do not collide.
 */
let lastMs = -1;
let seq = 0;

export function newId(nowMs: number = Date.now(), random: () => number = Math.random): string {
	if (nowMs === lastMs) {
		seq++;
	} else {
		lastMs = nowMs;
		seq = 0;
	}
	const time = Math.max(0, Math.floor(nowMs)).toString(36).padStart(9, "0");
	const counter = Math.min(seq, 36 * 36 - 1).toString(36).padStart(2, "0");
	let tail = "";
	for (let i = 0; i < 4; i++) tail += Math.floor(random() * 36).toString(36);
	return `${time}${counter}${tail}`;
}
