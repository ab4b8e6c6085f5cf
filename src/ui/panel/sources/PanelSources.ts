// The sources the person attached to the chat (notes, folders, tags, `@vault`): their chips, their
// texts for the preview and the send, drops onto the panel, and keeping them with the chat.
import { TFile } from "obsidian";
import type { App, Component } from "obsidian";
import type { ContextSource, SourceFit } from "../../../core/types";
import type { SourceRefStore, VaultSearchPort } from "../../ports";
import { dropRefs, mayCarryNotes } from "./dropNotes";
import { NoteTexts } from "./noteTexts";
import { CanvasNotes } from "./canvasNotes";
import { PdfNotes, type PdfOpener } from "./pdfNotes";
import { SourceChips, type ChipItem } from "./SourceChips";
import { notesOf, parseRefs, refKey, type SourceRef } from "./sourceRefs";
import { fitLabel, SOURCE_TEXT } from "./sourceText";

/** How many passages `@vault` asks the index for, and how many notes they may come from. */
export const VAULT_PASSAGES = 30;
export const VAULT_NOTES = 5;

export interface PanelSourcesOptions {
	vaultSearch: () => VaultSearchPort | undefined;
	store: () => SourceRefStore | undefined;
	/** The chat on screen (undefined until its first message is saved). */
	sessionId: () => string | undefined;
	/** The sources changed, or their texts arrived: the preview must be redone. */
	onChange: () => void;
	/** Paths a folder or tag never brings in (core/pathFences: chats, config and excluded folders). */
	fenced?: (path: string) => boolean;
	/** Opens a PDF for reading (default: the pdf.js Obsidian ships). */
	openPdf?: PdfOpener;
}

export class PanelSources {
	private refs: SourceRef[] = [];
	private fits = new Map<string, SourceFit>();
	readonly chips: SourceChips;
	readonly texts: NoteTexts;
	/** Attached canvases, read as their sources (the canvas, then the notes its cards show). */
	private readonly canvases: CanvasNotes;
	/** Attached PDFs, read as one source each (their pages as sections). */
	readonly pdfs: PdfNotes;
	/** The chat the refs belong to; a chat without an id yet keeps them here until it has one. */
	private savedFor: string | undefined;
	private loading = 0;

	constructor(
		parentEl: HTMLElement,
		private readonly app: App,
		private readonly options: PanelSourcesOptions,
	) {
		this.texts = new NoteTexts(app);
		this.canvases = new CanvasNotes(app, this.texts, options.fenced);
		this.pdfs = new PdfNotes(app, options.openPdf);
		this.chips = new SourceChips(parentEl, {
			onRemove: (ref) => this.remove(ref),
			onOpen: (ref) => {
				if (ref.type === "note") void app.workspace.openLinkText(ref.path, "", false);
			},
		});
	}

	get attached(): readonly SourceRef[] {
		return this.refs;
	}

	keys(): Set<string> {
		return new Set(this.refs.map(refKey));
	}

	add(ref: SourceRef): void {
		if (this.keys().has(refKey(ref))) return;
		this.refs = [...this.refs, ref];
		this.changed();
	}

	remove(ref: SourceRef): void {
		const key = refKey(ref);
		this.refs = this.refs.filter((r) => refKey(r) !== key);
		this.changed();
	}

	/** Accepts notes and folders dropped on `target` (while `owner` is loaded). */
	acceptDrops(owner: Component, target: HTMLElement): void {
		owner.registerDomEvent(target, "dragover", (e) => {
			if (!mayCarryNotes(e.dataTransfer)) return;
			e.preventDefault();
			if (e.dataTransfer) e.dataTransfer.dropEffect = "link";
			target.addClass("discover-chat-drop-target");
		});
		owner.registerDomEvent(target, "dragleave", (e) => {
			if (e.relatedTarget instanceof Node && target.contains(e.relatedTarget)) return;
			target.removeClass("discover-chat-drop-target");
		});
		owner.registerDomEvent(target, "drop", (e) => {
			target.removeClass("discover-chat-drop-target");
			const refs = dropRefs(this.app, e.dataTransfer);
			if (refs.length === 0) return;
			e.preventDefault();
			for (const ref of refs) this.add(ref);
		});
	}

	/** The chat on screen changed: show its saved sources (none for a new chat). */
	async showChat(sessionId: string | undefined): Promise<void> {
		const seq = ++this.loading;
		this.fits.clear();
		let refs: SourceRef[] = [];
		const store = this.options.store();
		if (sessionId !== undefined && store) {
			try {
				refs = parseRefs(await store.load(sessionId));
			} catch (err) {
				console.error("Discover: the chat's sources could not be read", err);
			}
		}
		if (seq !== this.loading) return;
		this.refs = refs;
		this.savedFor = sessionId;
		this.render();
		this.options.onChange();
	}

	/** The chat got its id (its first message was saved): keep the sources attached so far with it. */
	async chatSaved(): Promise<void> {
		const id = this.options.sessionId();
		if (id === undefined || id === this.savedFor) return;
		this.savedFor = id;
		if (this.refs.length > 0) await this.save();
	}

	private changed(): void {
		const files = this.noteFiles();
		this.canvases.keepOnly(new Set(files.map((f) => f.path)));
		this.pdfs.keepOnly(new Set(files.map((f) => f.path)));
		this.texts.keepOnly(new Set(files.flatMap((f) => [f.path, ...(f.extension === "canvas" ? this.canvases.notePaths(f) : [])])));
		this.render();
		this.options.onChange();
		void this.save();
	}

	private async save(): Promise<void> {
		const id = this.options.sessionId();
		const store = this.options.store();
		if (id === undefined || !store) return;
		this.savedFor = id;
		try {
			await store.save(id, this.refs);
		} catch (err) {
			console.error("Discover: the chat's sources could not be saved", err);
		}
	}

	/** Every note the attached notes, folders and tags stand for, once each, in order. */
	private noteFiles(): TFile[] {
		const seen = new Set<string>();
		const files: TFile[] = [];
		for (const ref of this.refs) {
			for (const file of notesOf(this.app, ref, this.options.fenced).files) {
				if (seen.has(file.path)) continue;
				seen.add(file.path);
				files.push(file);
			}
		}
		return files;
	}

	private source(file: TFile, text: string, kind: ContextSource["kind"]): ContextSource {
		return { id: file.path, name: file.basename, text, kind };
	}

	/** For the preview: the notes whose text is at hand; the others are read, then the preview is redone. */
	previewSources(): ContextSource[] {
		const out: ContextSource[] = [];
		const missing: TFile[] = [];
		const canvases: TFile[] = [];
		const pdfs: TFile[] = [];
		for (const file of this.noteFiles()) {
			if (file.extension === "pdf") {
				const sources = this.pdfs.cached(file);
				if (sources) out.push(...sources);
				else pdfs.push(file);
				continue;
			}
			if (file.extension === "canvas") {
				const sources = this.canvases.cached(file);
				if (sources) out.push(...sources);
				else canvases.push(file);
				continue;
			}
			const text = this.texts.cached(file);
			if (text === undefined) missing.push(file);
			else out.push(this.source(file, text, "note"));
		}
		if (missing.length > 0) {
			this.texts.load(missing).then(
				(read) => {
					if (read) this.options.onChange();
				},
				(err: unknown) => console.error("Discover: a note could not be read", err),
			);
		}
		if (canvases.length > 0) {
			Promise.all(canvases.map((c) => this.canvases.read(c))).then(
				() => this.options.onChange(),
				(err: unknown) => console.error("Discover: a canvas could not be read", err),
			);
		}
		if (pdfs.length > 0) {
			Promise.all(pdfs.map((f) => this.pdfs.read(f))).then(
				() => this.options.onChange(),
				(err: unknown) => console.error("Discover: a PDF could not be read", err),
			);
		}
		return uniqueSources(out);
	}

	/** For a send: every attached note, and with `@vault` the notes holding the passages most relevant to `query`. */
	async sendSources(query: string): Promise<ContextSource[]> {
		const files = this.noteFiles();
		const out: ContextSource[] = [];
		for (const file of files) {
			if (file.extension === "canvas") out.push(...(await this.canvases.read(file)));
			else if (file.extension === "pdf") out.push(...(await this.pdfs.read(file)));
			else out.push(this.source(file, await this.texts.read(file), "note"));
		}
		const vault = this.options.vaultSearch();
		if (this.refs.some((r) => r.type === "vault") && vault?.enabled) {
			const taken = new Set(files.map((f) => f.path));
			const notes: string[] = [];
			// searchText: a phrase query is matched against the notes' text, and a note edited since it was indexed is re-indexed first.
			const hits = vault.searchText ? await vault.searchText(query, { limit: VAULT_PASSAGES }) : vault.search(query, { limit: VAULT_PASSAGES });
			for (const hit of hits) {
				if (notes.length >= VAULT_NOTES) break;
				if (taken.has(hit.id) || notes.includes(hit.id)) continue;
				notes.push(hit.id);
			}
			for (const path of notes) {
				const file = this.app.vault.getAbstractFileByPath(path);
				// The whole note goes in as retrieved: the fitter keeps its passages most relevant to the
				// message, and the answer's saved ranges point into the note itself.
				if (!(file instanceof TFile)) continue;
				if (file.extension === "pdf") {
					// A PDF the index found (with "Index PDFs" on) goes in as an attached one does: its pages, each named.
					for (const pdf of await this.pdfs.read(file)) out.push({ ...pdf, kind: "retrieved" });
					continue;
				}
				const source = this.source(file, await this.app.vault.cachedRead(file), "retrieved");
				// Found by a search of its start only: the sources line says so.
				const over = vault.indexedInPartOverMb?.(path, source.text.length);
				if (over !== undefined) source.indexedInPartOverMb = over;
				out.push(source);
			}
		}
		return uniqueSources(out);
	}

	/** The engine's fits for the last preview or prompt. */
	showFits(fits: readonly SourceFit[]): void {
		this.fits = new Map(fits.map((f) => [f.id, f]));
		this.render();
	}

	fitOf(id: string): SourceFit | undefined {
		return this.fits.get(id);
	}

	private render(): void {
		this.chips.render(this.refs.map((ref) => this.chipItem(ref)));
	}

	private chipItem(ref: SourceRef): ChipItem {
		if (ref.type === "vault") {
			const on = this.options.vaultSearch()?.enabled === true;
			return { ref, label: SOURCE_TEXT.vaultChip(), fitText: on ? SOURCE_TEXT.searchedOnSend() : SOURCE_TEXT.vaultOff(), cut: !on, openable: false };
		}
		const { files, total } = notesOf(this.app, ref, this.options.fenced);
		const label = ref.type === "note" ? (files[0]?.basename ?? ref.path.replace(/\.md$/, "")) : ref.type === "folder" ? `${ref.path}/` : ref.tag;
		if (files.length === 0) return { ref, label, fitText: SOURCE_TEXT.missing(), cut: true, openable: false };
		const fits = files.map((f) => this.fits.get(f.path));
		const known = fits.filter((f): f is SourceFit => f !== undefined);
		let fitText = "";
		let cut = false;
		if (known.length === files.length) {
			const sum = { fit: "whole" as SourceFit["fit"], sentTokens: 0, totalTokens: 0 };
			for (const f of known) {
				sum.sentTokens += f.sentTokens;
				sum.totalTokens += f.totalTokens;
			}
			if (known.every((f) => f.fit === "whole")) sum.fit = "whole";
			else if (known.every((f) => f.fit === "none")) sum.fit = "none";
			else sum.fit = "excerpts";
			fitText = fitLabel(sum);
			cut = sum.fit !== "whole";
		}
		if (ref.type !== "note") fitText = [SOURCE_TEXT.notes(files.length, total), fitText].filter((t) => t !== "").join(" · ");
		return { ref, label, fitText, cut, openable: ref.type === "note" };
	}
}

/** Each source once (a note attached itself and shown on an attached canvas is sent once, as attached first). */
function uniqueSources(sources: ContextSource[]): ContextSource[] {
	const seen = new Set<string>();
	return sources.filter((s) => !seen.has(s.id) && seen.add(s.id) !== undefined);
}
