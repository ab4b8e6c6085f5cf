// Opens the real DiscoverView in the test workspace's right sidebar, with helpers to type and
// wait, for tests that run the panel on a real (or stubbed) engine.
import type * as O from "obsidian";
import { flush, pressKey, typeInto, type App } from "../obsidian/harness";
import { until } from "../support/chatHarness";
import { DiscoverView } from "../../src/ui/panel/DiscoverView";
import type { ChatRuntimeFactory, DiscoverHost } from "../../src/ui/host";

export async function openEnginePanel(app: App, host: DiscoverHost, factory: ChatRuntimeFactory) {
	const leaf = app.workspace.getRightLeaf(false)!;
	const view = new DiscoverView(leaf as unknown as O.WorkspaceLeaf, host, factory);
	await leaf.open(view as unknown as Parameters<typeof leaf.open>[0]);
	const root = view.contentEl;
	const input = root.querySelector<HTMLTextAreaElement>(".discover-chat-input")!;
	const send = async (text: string) => {
		typeInto(input, text);
		pressKey(input, "Enter");
		await flush();
	};
	const idle = () => until(() => root.querySelector(".discover-chat-send")?.getAttribute("aria-label") === "Send message", "the turn to end");
	return { view, leaf, root, input, send, idle };
}
