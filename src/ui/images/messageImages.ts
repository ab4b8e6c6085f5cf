// A sent message's images, shown from their vault files: the address is the vault's own resource
// path for the saved attachment, never a URL from model output.
import type { ImageRef } from "../../core/types";

export function renderMessageImages(el: HTMLElement, images: readonly ImageRef[], src: (ref: ImageRef) => string): void {
	el.empty();
	el.toggleClass("discover-chat-hidden", images.length === 0);
	for (const ref of images) {
		const name = ref.path.split("/").pop() ?? ref.path;
		el.createEl("img", { cls: "discover-chat-message-image", attr: { src: src(ref), alt: name, loading: "lazy" } });
	}
}
