import { describe, expect, it } from "vitest";
import { message } from "./helpers";
import { isNews } from "../../src/sessions/recordNews";
import { SessionState } from "../../src/sessions/sessionState";

const T0 = "2026-01-01T00:00:00.000Z";
const T1 = "2026-01-01T00:00:01.000Z";
const T2 = "2026-01-01T00:00:02.000Z";

function held(): SessionState {
	const state = new SessionState("s", T0);
	state.apply({ type: "message", message: message("user", "Question", 1), at: T1 });
	state.apply({ type: "summary", message: message("system", "Summary", 2), at: T1 });
	return state;
}

describe("isNews", () => {
	it("takes a newer change of a held message, never an older or identical copy", () => {
		const state = held();
		const changed = message("user", "Question, edited", 1);
		expect(isNews(state, { type: "update", message: changed, at: T2 })).toBe(true);
		expect(isNews(state, { type: "update", message: changed, at: T0 })).toBe(false);
		expect(isNews(state, { type: "message", message: message("user", "Question", 1), at: T2 })).toBe(false);
	});

	it("compares a summary with the held summary, whichever record carries it", () => {
		const state = held();
		const same = message("system", "Summary", 2);
		expect(isNews(state, { type: "summary", message: same, at: T2 })).toBe(false);
		expect(isNews(state, { type: "message", message: same, at: T2 })).toBe(false);
		expect(isNews(state, { type: "summary", message: message("system", "Newer summary", 2), at: T2 })).toBe(true);
	});

	it("does not bring back a discarded message from an older copy", () => {
		const state = held();
		const question = message("user", "Question", 1);
		state.apply({ type: "update", message: question, at: T2, discard: true });
		expect(isNews(state, { type: "message", message: question, at: T1 })).toBe(false);
		expect(isNews(state, { type: "message", message: { ...question, content: "Again" }, at: "2026-01-01T00:00:03.000Z" })).toBe(true);
	});

	it("knows the header and unreadable lines it holds", () => {
		const state = held();
		state.apply({ type: "corrupt", raw: "{broken" });
		expect(isNews(state, { type: "session", v: 1, id: "s", createdAt: T0, title: "New chat" })).toBe(false);
		expect(isNews(state, { type: "corrupt", raw: "{broken" })).toBe(false);
		expect(isNews(state, { type: "corrupt", raw: "{other" })).toBe(true);
	});
});
