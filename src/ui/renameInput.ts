import { t } from "../i18n";
/**
 * A text input for renaming in place: Enter or leaving it keeps the new name, Esc keeps the old one
 * (without closing a modal around it). `done` runs once, with the trimmed name or undefined.
 */
export function renameInput(value: string, done: (name: string | undefined) => void): HTMLInputElement {
	const input = createEl("input", { cls: "discover-chat-title-input", attr: { type: "text", "aria-label": t("rename.label") } });
	input.value = value;
	let finished = false;
	const finish = (commit: boolean): void => {
		if (finished) return;
		finished = true;
		const name = input.value.trim();
		done(commit && name !== "" && name !== value ? name : undefined);
	};
	input.addEventListener("keydown", (e) => {
		if (e.key !== "Enter" && e.key !== "Escape") return;
		e.preventDefault();
		e.stopPropagation();
		finish(e.key === "Enter");
	});
	input.addEventListener("blur", () => finish(true));
	return input;
}
