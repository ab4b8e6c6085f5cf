// An embed of a vault note (`![[Note]]`, `![[Note#Heading]]`) in untrusted Markdown, rendered by the
// panel instead of by Obsidian. Obsidian fills its own embeds in after the render, from the note as
// written: a remote image in that note would load the moment the answer shows (Chromium fetches an
// <img> as soon as it is created with a src, before any later pass could stop it). The person still
// sees their note, rendered through the same guarded path as the answer: a remote image in it shows
// "Image from host — load", like any other. Embeds that could show the web another way (a canvas's
// web pages, a base's cover images from properties) become links; local media is shown from the vault (markdown/vaultMedia.ts).
import type { App, CachedMetadata, Component, TFile } from "obsidian";

/** Embeds inside embeds, as deep as Obsidian goes before it stops; deeper ones become links. */
export const MAX_EMBED_DEPTH = 4;

export interface NoteEmbedContext {
	app: App;
	/** The note links resolve against. */
	sourcePath: string;
	component: Component;
	/** How many embeds this one sits in. */
	depth: number;
	/** Renders the embedded note's Markdown (guarded and inert) into a detached element. */
	render: (markdown: string, el: HTMLElement, sourcePath: string, depth: number) => Promise<void>;
}

/** `![[target|alias]]` found in Markdown: the target as written (with its #subpath) and the alias. */
export interface NoteEmbedRef {
	target: string;
	alias: string | undefined;
}

/**
 * The element an embed shows as: a note's embed, filled once the note is read, or a link to the
 * target when it is not a note in the vault (or sits too deep in other embeds).
 */
export function noteEmbed(ctx: NoteEmbedContext, ref: NoteEmbedRef): HTMLElement {
	const hash = ref.target.indexOf("#");
	const linkpath = (hash < 0 ? ref.target : ref.target.slice(0, hash)).trim();
	const subpath = hash < 0 ? "" : ref.target.slice(hash + 1).trim();
	const file = ctx.app.metadataCache.getFirstLinkpathDest(linkpath, ctx.sourcePath);
	const shownText = ref.alias ?? ref.target;
	if (!file || file.extension !== "md" || ctx.depth >= MAX_EMBED_DEPTH) {
		return createEl("a", { cls: "internal-link", text: shownText, href: ref.target, attr: { "data-href": ref.target } });
	}
	const embed = createSpan({ cls: ["internal-embed", "markdown-embed", "inline-embed", "discover-chat-embed"], attr: { src: ref.target, alt: ref.alias ?? null } });
	// Until the note is read, its name holds the place: one quiet line, not a blank the size of a note.
	const content = embed.createDiv({ cls: "markdown-embed-content", text: shownText });
	let closed = false;
	ctx.component.register(() => {
		closed = true;
	});
	void fill(ctx, file, subpath, content).then(
		(done) => {
			if (done && !closed) embed.addClass("is-loaded");
		},
		// An unreadable note leaves the embed showing its name: still a pointer to the note.
		() => content.setText(shownText),
	);
	return embed;

	async function fill(c: NoteEmbedContext, note: TFile, sub: string, into: HTMLElement): Promise<boolean> {
		const markdown = section(await c.app.vault.cachedRead(note), c.app.metadataCache.getFileCache(note), sub);
		if (closed) return false;
		const rendered = createDiv();
		await c.render(markdown, rendered, note.path, c.depth + 1);
		if (closed) return false;
		into.replaceChildren(...Array.from(rendered.childNodes));
		return true;
	}
}

/** The part of a note a subpath names: a heading's section, a block, or the whole note. */
export function section(markdown: string, cache: CachedMetadata | null, subpath: string): string {
	if (subpath === "") return markdown;
	if (subpath.startsWith("^")) {
		const block = cache?.blocks?.[subpath.slice(1).toLowerCase()];
		return block ? markdown.slice(block.position.start.offset, block.position.end.offset) : markdown;
	}
	const wanted = subpath.split("#").at(-1)?.trim().toLowerCase() ?? "";
	const headings = cache?.headings ?? [];
	const at = headings.findIndex((h) => h.heading.trim().toLowerCase() === wanted);
	const heading = headings[at];
	if (!heading) return markdown;
	const next = headings.slice(at + 1).find((h) => h.level <= heading.level);
	return markdown.slice(heading.position.start.offset, next?.position.start.offset ?? markdown.length);
}
