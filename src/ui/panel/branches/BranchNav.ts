import { setIcon } from "obsidian";
import type { Alternatives } from "../../branchPort";
import { t } from "../../../i18n";

/**
 * "‹ 2 / 3 ›" under a message that has alternatives (regenerated answers, edited messages). The
 * arrows are disabled at the ends; choosing one calls `onSwitch` with the alternative's id.
 */
export function renderBranchNav(parentEl: HTMLElement, alternatives: Alternatives, onSwitch: (id: string, direction: -1 | 1) => void): HTMLElement {
	const { ids, index } = alternatives;
	const el = parentEl.createDiv({ cls: "discover-chat-branch-nav", attr: { role: "group", "aria-label": t("branch.versions") } });
	const arrow = (direction: -1 | 1): void => {
		const target = ids[index + direction];
		const label = direction < 0 ? t("branch.previous") : t("branch.next");
		const button = el.createEl("button", {
			cls: ["clickable-icon", "discover-chat-branch-arrow", direction < 0 ? "discover-chat-branch-prev" : "discover-chat-branch-next"],
			attr: { type: "button", "aria-label": label },
		});
		setIcon(button, direction < 0 ? "chevron-left" : "chevron-right");
		button.disabled = target === undefined;
		button.addEventListener("click", () => {
			if (target !== undefined) onSwitch(target, direction);
		});
		if (direction < 0) {
			el.createSpan({
				cls: "discover-chat-branch-position",
				text: `${index + 1} / ${ids.length}`,
				attr: { "aria-label": t("branch.position", { index: String(index + 1), count: ids.length }) },
			});
		}
	};
	arrow(-1);
	arrow(1);
	return el;
}
