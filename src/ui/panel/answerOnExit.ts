// The answer being streamed must survive the app going away. Obsidian waits for quit tasks, so the
// partial answer is saved before it closes; a crash, a killed app or a phone putting Obsidian away
// gives no quit, so hiding the page is the last moment a write may still land: the answer so far
// goes to disk at once.
import type { ItemView } from "obsidian";
import type { ChatRuntime } from "../host";

/** Stops a running answer and waits until its partial text (and the calibration) is saved. */
export async function flushRuntime(runtime: ChatRuntime | undefined): Promise<void> {
	await runtime?.chat.flush();
	await runtime?.close?.();
}

/** Writes the answer being streamed to disk now (it keeps streaming). */
export function checkpointAnswer(runtime: ChatRuntime | undefined): void {
	runtime?.chat.checkpointNow().catch((err: unknown) => console.error("Discover: the answer so far could not be saved", err));
}

/** Keeps the view's running answer on quit, page hide and the app being hidden, while the view is loaded. */
export function keepAnswerOnExit(view: ItemView, runtime: () => ChatRuntime | undefined): void {
	view.registerEvent(view.app.workspace.on("quit", (tasks) => tasks.add(() => flushRuntime(runtime()))));
	const win = view.containerEl.win;
	const doc = view.containerEl.doc;
	view.registerDomEvent(win, "pagehide", () => checkpointAnswer(runtime()));
	view.registerDomEvent(doc, "visibilitychange", () => {
		if (doc.visibilityState === "hidden") checkpointAnswer(runtime());
	});
}
