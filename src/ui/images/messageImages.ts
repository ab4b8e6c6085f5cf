// A sent message's images, shown from their vault files: the address is the vault's own resource
// path for the saved attachment, never a URL from model output.
import type { ImageRef } from "../../core/types";
import { t } from "../../i18n";

export function renderMessageImages(el: HTMLElement, images: readonly ImageRef[], src: (ref: ImageRef) => string | undefined): void {
	el.empty();
	el.toggleClass("discover-chat-hidden", images.length === 0);
	for (const ref of images) {
		const name = ref.path.split(/[\\/]/).pop() ?? ref.path;
		const address = src(ref);
		// A reference with no vault address (a path outside the vault in a synced chat file) is not
		// read: it says so in its place.
		if (address === undefined) el.createSpan({ cls: "discover-chat-message-image-refused", text: t("warning.imagePathRefused", { name }) });
		else el.createEl("img", { cls: "discover-chat-message-image", attr: { src: address, alt: name, loading: "lazy" } });
	}
}
