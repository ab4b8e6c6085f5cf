// --exclude on the terminal chat's command line: repeatable, vault-relative, refused at start when
// it could point outside the vault or at the whole vault; kept in the resume command; documented.
import { describe, expect, it } from "vitest";
import { parseChatArgs, resumeCommand, USAGE } from "../../scripts/chatArgs";
import { inFolder, parseExcludedFolder } from "../../scripts/excludedFolders";

const base = ["--model", "m", "--vault", "v"];

describe("--exclude", () => {
	it("is given once per folder, in --exclude value or --exclude=value form, normalized to a vault path", () => {
		const r = parseChatArgs([...base, "--exclude", "Private/", "--exclude=./Work/Clients", "--exclude", "Notes, old"]);
		expect(r).toMatchObject({ ok: true, args: { exclude: ["Private", "Work/Clients", "Notes, old"] } });
		if (r.ok) expect(resumeCommand(r.args, "01AB")).toContain("--vault v --exclude Private --exclude Work/Clients --exclude 'Notes, old'");
		const none = parseChatArgs(base);
		expect(none.ok && none.args.exclude).toBeUndefined();
	});

	it.each([
		[["--exclude", "../Elsewhere"], `--exclude "../Elsewhere" leaves the vault ("..")`],
		[["--exclude", "Work/../../x"], `leaves the vault ("..")`],
		[["--exclude", "/home/me/vault/Private"], `--exclude "/home/me/vault/Private" is an absolute path`],
		[["--exclude", "C:/Vault/Private"], "is an absolute path"],
		[["--exclude", "~/Private"], "is an absolute path"],
		[["--exclude", "Work\\Private"], "uses backslashes"],
		[["--exclude", "./"], "names the whole vault"],
		[["--exclude", "Private", "--exclude", "Private"], "--exclude Private is given twice"],
		[["--exclude"], "--exclude needs a value"],
	])("refuses %j with a clear message", (extra, message) => {
		const r = parseChatArgs([...base, ...extra]);
		expect(r.ok).toBe(false);
		if (!r.ok) expect(r.error).toContain(message);
	});

	it("needs --vault", () => {
		expect(parseChatArgs(["--model", "m", "--exclude", "Private"])).toEqual({ ok: false, error: "--exclude needs --vault <folder>: it names a folder inside the vault." });
	});

	it("is documented in --help, with its one form", () => {
		expect(USAGE).toMatch(/--exclude <folder> {2,}leave this folder of the --vault out/);
		expect(USAGE).toContain("give it once per folder");
	});

	it("matches a folder and what is inside it, case and trailing dots folded, never a sibling with a longer name", () => {
		expect(parseExcludedFolder("Private")).toEqual({ ok: true, folder: "Private" });
		expect(inFolder("Private/Diary.md", "Private")).toBe(true);
		expect(inFolder("private./x/Diary.md", "Private")).toBe(true);
		expect(inFolder("Private", "Private")).toBe(true);
		expect(inFolder("Private notes/Diary.md", "Private")).toBe(false);
		expect(inFolder("Work/Private/Diary.md", "Private")).toBe(false);
	});
});
