// Opens the Discover panel in the in-memory workspace with a fake engine and hand-driven frames.
import type * as O from "obsidian";
import { asObsidianApp, createTestApp, openNote, type App } from "../obsidian/harness";
import { DiscoverView, type DiscoverViewOptions } from "../../src/ui/panel/DiscoverView";
import type { PanelSettings } from "../../src/ui/host";
import { fakeWorld, ManualFrames, testSettings } from "./fakes";

export const NOTE_TEXT = "# Alpha\n\nAlpha is the first note.\n\nIt links to [[Beta]].\n";

export async function mountView(opts: { settings?: Partial<PanelSettings>; files?: Record<string, string>; open?: string | null; before?: (w: ReturnType<typeof fakeWorld>) => void; viewOptions?: DiscoverViewOptions } = {}) {
	const app: App = await createTestApp({ files: opts.files ?? { "Notes/Alpha.md": NOTE_TEXT, "Notes/Beta.md": "# Beta\n\nBeta text.\n" } });
	const markdownView = opts.open === null ? undefined : await openNote(app, opts.open ?? "Notes/Alpha.md");
	const world = fakeWorld(asObsidianApp(app), testSettings(opts.settings));
	opts.before?.(world);
	const frames = new ManualFrames();
	const leaf = app.workspace.getRightLeaf(false)!;
	const view = new DiscoverView(leaf as unknown as O.WorkspaceLeaf, world.host, world.factory, { scheduler: frames.options, ...opts.viewOptions });
	await leaf.open(view as unknown as Parameters<typeof leaf.open>[0]);
	const root = view.contentEl;
	const q = <T extends HTMLElement = HTMLElement>(sel: string): T => {
		const el = root.querySelector<T>(sel);
		if (!el) throw new Error(`Nothing matches ${sel}`);
		return el;
	};
	return {
		app,
		leaf,
		view,
		frames,
		markdownView,
		...world,
		get chat() {
			return world.chat;
		},
		get closeCalls() {
			return world.closeCalls;
		},
		root,
		q,
		input: () => q<HTMLTextAreaElement>(".discover-chat-input"),
		button: () => q<HTMLButtonElement>(".discover-chat-send"),
		messages: () => Array.from(root.querySelectorAll<HTMLElement>(".discover-chat-message")),
		texts: () => Array.from(root.querySelectorAll<HTMLElement>(".discover-chat-message-body")).map((el) => el.textContent ?? ""),
	};
}

export type Mounted = Awaited<ReturnType<typeof mountView>>;
