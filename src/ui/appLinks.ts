// Links in model output to `obsidian://` addresses. Such a link does not go to the web: Obsidian
// handles it, and plugins add actions to it (Advanced URI runs any command, writes notes, changes
// settings). A model, or a note it read, can write `[Open your summary](obsidian://advanced-uri?…)`:
// the link's words say nothing of what it does. So its whole address is shown beside it, and a
// click asks first, naming that address.
import type { App } from "obsidian";
import { t } from "../i18n";
import { confirmAction } from "./history/ConfirmModal";

/** An address Obsidian itself handles (its own URI scheme), read as the browser reads the href. */
export function isAppUri(href: string): boolean {
	// eslint-disable-next-line no-control-regex -- a browser drops these before reading the scheme
	return /^obsidian:/i.test(href.replace(/[\u0000-\u0020]/g, ""));
}

/** Every `obsidian://` link under `root`: its full address shown after it, and a click that asks first. */
export function guardAppLinks(root: HTMLElement, app: App): void {
	for (const link of Array.from(root.querySelectorAll<HTMLAnchorElement>("a[href]"))) {
		const href = link.getAttribute("href") ?? "";
		if (!isAppUri(href)) continue;
		link.addClass("discover-chat-app-link");
		link.setAttribute("title", href);
		link.after(createSpan({ cls: "discover-chat-app-link-target", text: ` (${href})` }));
		const ask = (event: MouseEvent): void => {
			event.preventDefault();
			event.stopPropagation();
			void confirmAction(app, t("link.obsidianUriTitle"), t("link.obsidianUriMessage", { uri: href }), t("link.obsidianUriOpen")).then((ok) => {
				if (ok) link.win.open(href);
			});
		};
		link.addEventListener("click", ask);
		link.addEventListener("auxclick", ask);
	}
}
