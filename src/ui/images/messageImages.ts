// A sent message's images, shown from their vault files: the address is the vault's own resource
// path for the saved attachment, never a URL from model output.
import type { ImageRef } from "../../core/types";

export function renderMessageImages(el: HTMLElement, images: readonly ImageRef[], src: (ref: ImageRef) => string | undefined): void {
	el.empty();
	// A reference with no vault address (a path outside the vault in a chat file) shows nothing.
	const shown = images.flatMap((ref) => {
		const address = src(ref);
		return address === undefined ? [] : [{ ref, address }];
	});
	el.toggleClass("discover-chat-hidden", shown.length === 0);
	for (const { ref, address } of shown) {
		const name = ref.path.split("/").pop() ?? ref.path;
		el.createEl("img", { cls: "discover-chat-message-image", attr: { src: address, alt: name, loading: "lazy" } });
	}
}
