// Files in the plugin's own folder (`<configDir>/plugins/<id>/`), through the vault adapter (the
// folder is hidden, so the Vault API cannot reach it). Written through a temporary file and a
// rename, so a crash leaves the old or the new file, never half of one.
import { normalizePath } from "obsidian";
import type { DataAdapter, Plugin } from "obsidian";

export const TMP_SUFFIX = ".tmp";

/** The plugin's folder: its manifest's `dir`, or where Obsidian installs plugins. */
export function pluginDir(plugin: Pick<Plugin, "app" | "manifest">): string {
	return normalizePath(plugin.manifest.dir ?? `${plugin.app.vault.configDir}/plugins/${plugin.manifest.id}`);
}

export async function writeAtomically(adapter: DataAdapter, path: string, text: string): Promise<void> {
	await replaceThroughTemp(adapter, path, (temp) => adapter.write(temp, text));
}

/** `writeAtomically` for bytes (`adapter.writeBinary` takes a whole ArrayBuffer: the view is copied when it is part of one). */
export async function writeBinaryAtomically(adapter: DataAdapter, path: string, bytes: Uint8Array): Promise<void> {
	const whole = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes.buffer : bytes.slice().buffer;
	await replaceThroughTemp(adapter, path, (temp) => adapter.writeBinary(temp, whole as ArrayBuffer));
}

async function replaceThroughTemp(adapter: DataAdapter, path: string, writeTemp: (temp: string) => Promise<void>): Promise<void> {
	const dir = path.slice(0, path.lastIndexOf("/"));
	if (dir !== "" && !(await adapter.exists(dir))) await adapter.mkdir(dir);
	const temp = path + TMP_SUFFIX;
	await writeTemp(temp);
	// Obsidian's adapter cannot rename over a file: the old one goes first; a crash in between
	// leaves the complete temporary file, which readPluginFile takes.
	if (await adapter.exists(path)) await adapter.remove(path);
	await adapter.rename(temp, path);
}

/** The file's text, or undefined when there is none; a finished temporary file stands in for it. */
export async function readPluginFile(adapter: DataAdapter, path: string): Promise<string | undefined> {
	if (await adapter.exists(path)) return adapter.read(path);
	if (await adapter.exists(path + TMP_SUFFIX)) return adapter.read(path + TMP_SUFFIX);
	return undefined;
}

/** `readPluginFile` for bytes. */
export async function readPluginBinary(adapter: DataAdapter, path: string): Promise<ArrayBuffer | undefined> {
	if (await adapter.exists(path)) return adapter.readBinary(path);
	if (await adapter.exists(path + TMP_SUFFIX)) return adapter.readBinary(path + TMP_SUFFIX);
	return undefined;
}
