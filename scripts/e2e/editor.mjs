// The browser test's Edit with Discover screens (called from the browser test with one line): a real
// CodeMirror editor on the open note with the plugin's editor extension, the command run from the
// registry, the proposal streamed from the model server into the note, one hunk accepted, one
// rejected, a stale hunk; screenshots on desktop and phone, light and dark.
import { join } from "node:path";
import * as harness from "./harness.mjs";

export const name = "editor";
export const needs = ["panel"];

/** @param {import("./harness.mjs").Harness} h */
export async function run({ page, model }) {
	const { check, artifacts, step } = harness;
	await step("Edit with Discover: the prompt, the streaming diff in the note, a stale hunk, one accepted, one rejected; desktop and phone, light and dark", () => editorSteps({ page, model, check, artifacts }));
}

const PLAN = ["# Plan", "", "The quick brown fox jumps over the lazy dog near the harbour.", "It jumps over the dog twice before noon.", "", "A line left alone.", "The end of it, as written first.", ""].join("\n");
const REWRITE = ["The slow brown fox walks past the sleepy dog near the harbour.", "It jumps over the dog twice before noon.", "", "A line left alone.", "The very end.", ""].join("\n");

/**
 * @param {{ page: import("playwright-core").Page, model: { queue(a: unknown): void, lastChatRequest(): any }, check: (ok: boolean, what: string) => boolean, artifacts: string }} t
 */
export async function editorSteps({ page, model, check, artifacts }) {
	const shot = async (name) => {
		await page.screenshot({ path: join(artifacts, `${name}-light.png`) });
		await page.evaluate(() => document.body.classList.replace("theme-light", "theme-dark"));
		await page.screenshot({ path: join(artifacts, `${name}-dark.png`) });
		await page.evaluate(() => document.body.classList.replace("theme-dark", "theme-light"));
	};
	const count = (sel) => page.locator(`.cm-editor ${sel}`).count();
	const docText = () => page.evaluate(() => window.e2e.editor.state.doc.toString());

	for (const [device, size] of [
		["", { width: 1280, height: 800 }],
		["phone-", { width: 390, height: 844 }],
	]) {
		await page.setViewportSize(size);
		await page.evaluate(
			async ({ plan, phone }) => {
				const e2e = window.e2e;
				const note = e2e.app.vault.getFileByPath("Notes/Plan.md") ?? (await e2e.app.vault.create("Notes/Plan.md", plan));
				await e2e.app.vault.modify(note, plan);
				const leaf = e2e.app.workspace.getLeavesOfType("markdown")[0] ?? e2e.app.workspace.getLeaf(false);
				await leaf.openFile(note);
				// Commands on a note's editor run while the note is the active leaf (the panel was).
				e2e.harness.activateLeaf(e2e.app, leaf);
				document.body.classList.toggle("is-mobile", phone);
				// On a phone the note being edited fills the screen: the panel's sidebar is closed meanwhile.
				document.querySelector(".workspace-split.mod-right-split")?.toggleAttribute("hidden", phone);
				document.querySelector(".workspace-split.mod-root")?.classList.toggle("e2e-note-on-phone", phone);
				e2e.mountEditor();
				e2e.selectInEditor(plan.slice(plan.indexOf("The quick"), plan.length - 1));
			},
			{ plan: PLAN, phone: device !== "" },
		);
		const ran = await page.evaluate(() => window.e2e.harness.runCommand(window.e2e.app, `${window.e2e.plugin.manifest.id}:edit-inline`));
		check(ran, `${device}editor: "Edit inline" runs in a note's editor`);
		await page.waitForSelector(".cm-editor .discover-edit-prompt .discover-edit-input", { timeout: 5000 });
		await page.fill(".cm-editor .discover-edit-input", "tighten this");
		check((await count(".discover-edit-review-buttons:visible")) === 0, `${device}editor: Accept all and Reject all are not shown before there is a proposal`);
		await shot(`${device}editor-prompt`);

		// The proposal streams into the note, slowly enough to be seen.
		model.queue({ tokens: REWRITE.match(/\S+\s*/g), tokensPerSecond: 12 });
		await page.press(".cm-editor .discover-edit-input", "Enter");
		await page.waitForSelector(".cm-editor .discover-edit-hunk.is-streaming", { timeout: 10000 });
		check((await count(".discover-edit-hunk button")) === 0, `${device}editor: no buttons while it streams`);
		check((await count(".discover-edit-stop:not(.discover-edit-hidden)")) === 1, `${device}editor: Stop shows while it streams`);
		await shot(`${device}editor-streaming`);
		await page.waitForSelector(".cm-editor .discover-edit-hunk:not(.is-streaming) button", { timeout: 20000 });
		check((await docText()) === PLAN, `${device}editor: the note is unchanged until something is accepted`);
		const request = model.lastChatRequest();
		check(JSON.stringify(request?.messages ?? []).includes("Instruction: tighten this"), `${device}editor: the request carries the instruction`);

		// A stale hunk: the person types inside the second hunk's text.
		await page.evaluate(() => {
			const view = window.e2e.editor;
			const at = view.state.doc.toString().indexOf("as written first");
			view.dispatch({ changes: { from: at, insert: "still " } });
		});
		check((await count(".discover-edit-hunk.is-stale button.mod-cta[disabled]")) === 1, `${device}editor: a hunk whose text changed is stale, its Accept disabled`);
		await shot(`${device}editor-stale`);

		// One accepted, then the stale one rejected.
		await page.click(".cm-editor .discover-edit-hunk:not(.is-stale) button.mod-cta");
		check((await docText()).startsWith("# Plan\n\nThe slow brown fox walks past the sleepy dog"), `${device}editor: Accept writes that hunk`);
		await shot(`${device}editor-accepted`);
		await page.click(".cm-editor .discover-edit-hunk.is-stale button:not(.mod-cta)");
		check((await count(".discover-edit-hunk")) === 0, `${device}editor: Reject ends the review`);
		check((await docText()).includes("The end of it, still as written first."), `${device}editor: the rejected hunk's text stays as the person left it`);
		await shot(`${device}editor-rejected`);
		if (device !== "") {
			const small = await page.evaluate(() => [...document.querySelectorAll(".cm-editor .discover-edit-button")].filter((b) => b.getBoundingClientRect().height > 0 && b.getBoundingClientRect().height < 44).length);
			check(small === 0, "phone-editor: every control is at least 44 px tall");
		}
	}
	await page.evaluate(() => {
		document.body.classList.remove("is-mobile");
		document.querySelector(".workspace-split.mod-right-split")?.removeAttribute("hidden");
		document.querySelector(".workspace-split.mod-root")?.classList.remove("e2e-note-on-phone");
	});
	await page.setViewportSize({ width: 1280, height: 800 });
}
