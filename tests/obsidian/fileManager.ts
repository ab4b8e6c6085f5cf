// FileManager: trashFile, which in Obsidian follows the person's "deleted files" preference
// (system trash, the vault's .trash, or deleted; here the vault's system-trash delete), and
// processFrontMatter: the note's front matter as an object to change in place, written back as
// YAML (the body is kept byte for byte; a note without front matter gets one).
import type * as O from "obsidian";
import type { Vault } from "./vault";
import { parseYaml, stringifyYaml } from "./yaml";

const FRONT_MATTER = /^---\r?\n([\s\S]*?)\r?\n?---[ \t]*(?:\r?\n|$)/;

export class FileManager implements Pick<O.FileManager, "trashFile" | "processFrontMatter"> {
	constructor(private readonly vault: Vault) {}

	trashFile(file: O.TAbstractFile): Promise<void> {
		return this.vault.trash(file, true);
	}

	async processFrontMatter(file: O.TFile, fn: (frontmatter: Record<string, unknown>) => void, options?: O.DataWriteOptions): Promise<void> {
		await this.vault.process(
			file,
			(text) => {
				const match = FRONT_MATTER.exec(text);
				const parsed = match ? parseYaml(match[1] ?? "") : {};
				const fm = (typeof parsed === "object" && parsed !== null && !Array.isArray(parsed) ? parsed : {}) as Record<string, unknown>;
				fn(fm);
				const body = match ? text.slice(match[0].length) : text;
				return `---\n${stringifyYaml(fm)}---\n${body}`;
			},
			options,
		);
	}
}
