// Type-level conformance: tsc checks that the runtime's classes can stand in for obsidian.d.ts's.
// Where the runtime implements a whole class, it is assigned to the real type; where it covers
// part of a large class (App, Workspace, Setting), the covered members are listed with Pick, so
// a signature that drifts from obsidian.d.ts fails `npm run typecheck`.
import type * as O from "obsidian";
import * as R from "./index";
import type { TestEditor } from "./views";

type Ctor<A extends unknown[], T> = new (...args: A) => T;

/** Members of the partially covered classes that the runtime implements, by name. */
export const COVERED = {
	App: ["vault", "workspace", "metadataCache", "fileManager", "secretStorage", "isDarkMode", "loadLocalStorage", "saveLocalStorage"],
	Workspace: [
		"activeLeaf",
		"containerEl",
		"layoutReady",
		"onLayoutReady",
		"getLeaf",
		"getRightLeaf",
		"getLeftLeaf",
		"getLeafById",
		"getLeavesOfType",
		"detachLeavesOfType",
		"revealLeaf",
		"setActiveLeaf",
		"getActiveFile",
		// getActiveViewOfType is generic: checked apart (CHECKED_APART).
		"getMostRecentLeaf",
		"openLinkText",
		"iterateAllLeaves",
		"iterateRootLeaves",
		"on",
		"off",
		"offref",
		"trigger",
	],
	WorkspaceLeaf: ["view", "open", "openFile", "setViewState", "getViewState", "detach", "getDisplayText", "getIcon", "setPinned", "togglePinned", "isDeferred", "loadIfDeferred", "getEphemeralState", "setEphemeralState", "onResize"],
	Setting: ["settingEl", "infoEl", "nameEl", "descEl", "controlEl", "components", "setName", "setDesc", "setClass", "setTooltip", "setHeading", "setDisabled", "addButton", "addExtraButton", "addToggle", "addText", "addTextArea", "addDropdown", "addComponent", "then", "clear"],
	Plugin: ["app", "manifest", "onload", "loadData", "saveData", "addCommand", "removeCommand", "addRibbonIcon", "addStatusBarItem", "addSettingTab", "registerView", "registerMarkdownPostProcessor", "registerMarkdownCodeBlockProcessor", "registerEvent", "register", "registerDomEvent", "registerInterval", "registerObsidianProtocolHandler", "registerEditorExtension", "addChild", "removeChild", "load", "unload", "onunload"],
	Modal: ["app", "containerEl", "modalEl", "titleEl", "contentEl", "scope", "open", "close", "onOpen", "onClose", "setTitle", "setContent", "setCloseCallback"],
	ItemView: ["app", "leaf", "containerEl", "contentEl", "icon", "navigation", "addAction", "getViewType", "getDisplayText", "getState", "setState", "getIcon", "onResize", "load", "unload", "register", "registerDomEvent"],
	MarkdownView: ["app", "file", "editor", "getViewType", "getViewData"],
	Editor: ["getValue", "setValue", "getSelection", "somethingSelected", "replaceSelection", "lineCount", "getLine", "focus", "hasFocus"],
	PluginSettingTab: ["app", "containerEl", "icon", "display", "hide"],
	MetadataCache: ["getFileCache", "getCache", "getFirstLinkpathDest", "fileToLinktext", "resolvedLinks", "unresolvedLinks", "on", "off", "offref", "trigger"],
	FileManager: ["trashFile", "processFrontMatter"],
} as const;

/**
 * Classes the runtime implements whole (checked with `satisfies` below), and those whose members
 * src/ reaches only through one of them (a TextComponent's setValue is AbstractTextComponent's).
 * The conformance test fails when src/ uses a member of any other class that COVERED lacks.
 */
export const WHOLE = [
	"Events",
	"Component",
	"DataAdapter",
	"Vault",
	"TAbstractFile",
	"TFile",
	"TFolder",
	"SecretStorage",
	"Scope",
	"BaseComponent",
	"ValueComponent",
	"AbstractTextComponent",
	"TextComponent",
	"TextAreaComponent",
	"ToggleComponent",
	"DropdownComponent",
	"ButtonComponent",
	"ExtraButtonComponent",
	"SecretComponent",
	"Notice",
	"Tasks",
	"MarkdownRenderer",
	"MarkdownRenderChild",
	"Menu",
	"MenuItem",
	// Values returned by whole classes or functions above: DataAdapter.list/stat, debounce, a
	// file's stats, the manifest a plugin is given, what the metadata cache parsed.
	"FileStats",
	"PluginManifest",
	"CachedMetadata",
	"ListedFiles",
	"Stat",
	"Debouncer",
	"TagCache",
	// A heading's section (embeds of `Note#Heading`): where the metadata cache found each heading.
	"HeadingCache",
	"CacheItem",
	"Pos",
	"Loc",
	// What an obsidian:// handler is given (harness.openObsidianUrl builds it).
	"ObsidianProtocolData",
] as const;

/** Generic members, which Covered cannot compare: each is checked on its own in typeConformance. */
export const CHECKED_APART = ["Workspace.getActiveViewOfType"] as const;

/** A member declared on a base class counts as covered where a covered subclass lists it. */
export const INHERITED_BY: Record<string, keyof typeof COVERED> = {
	View: "ItemView",
	FileView: "MarkdownView",
	TextFileView: "MarkdownView",
	SettingTab: "PluginSettingTab",
	// What editor events and commands get as `info`/`ctx`: the runtime passes the MarkdownView.
	MarkdownFileInfo: "MarkdownView",
};

/**
 * Obsidian's types with its partly covered classes swapped for the runtime's, so members compare
 * one level deep (an App's `workspace` is checked as a runtime Workspace, itself checked above).
 */
type Swap<T> = T extends O.Editor
	? TestEditor
	: T extends O.FileManager
	? R.FileManager
	: T extends O.App
	? R.App
	: T extends O.MetadataCache
	? R.MetadataCache
	: T extends O.Workspace
		? R.Workspace
		: T extends O.WorkspaceLeaf
			? R.WorkspaceLeaf
			: T extends O.Setting
				? R.Setting
				: T extends O.ItemView
					? R.ItemView
					: T extends O.View
						? R.View
						: T extends O.Plugin
							? R.Plugin
							: T extends O.PluginSettingTab
								? R.PluginSettingTab
								: T extends O.Modal
									? R.Modal
									: T extends Promise<infer P>
										? Promise<Swap<P>>
										: T extends readonly (infer E)[]
											? Swap<E>[]
											: T extends (...args: infer A) => infer Ret
												? (...args: { [I in keyof A]: Swap<A[I]> }) => Swap<Ret>
												: T;

type Covered<T, K extends keyof typeof COVERED> = { [P in Extract<(typeof COVERED)[K][number], keyof T>]: Swap<T[P]> };

// Never called: tsc checks the body. Whole classes and functions are assignable to Obsidian's types.
export function typeConformance(el: HTMLElement, app: R.App, leaf: R.WorkspaceLeaf, manifest: O.PluginManifest): object {
	return {
		events: new R.Events() satisfies O.Events,
		component: new R.Component() satisfies O.Component,
		adapter: new R.InMemoryAdapter() satisfies O.DataAdapter,
		vault: new R.Vault() satisfies O.Vault,
		file: null as unknown as R.TFile satisfies O.TFile,
		folder: null as unknown as R.TFolder satisfies O.TFolder,
		secrets: new R.SecretStorage() satisfies O.SecretStorage,
		scope: new R.Scope() satisfies O.Scope,
		menu: new R.Menu() satisfies O.Menu,
		menuItem: null as unknown as R.MenuItem satisfies O.MenuItem,
		tasks: new R.Tasks() satisfies O.Tasks,
		text: R.TextComponent satisfies Ctor<[HTMLElement], O.TextComponent>,
		textArea: R.TextAreaComponent satisfies Ctor<[HTMLElement], O.TextAreaComponent>,
		toggle: R.ToggleComponent satisfies Ctor<[HTMLElement], O.ToggleComponent>,
		dropdown: R.DropdownComponent satisfies Ctor<[HTMLElement], O.DropdownComponent>,
		button: R.ButtonComponent satisfies Ctor<[HTMLElement], O.ButtonComponent>,
		extraButton: R.ExtraButtonComponent satisfies Ctor<[HTMLElement], O.ExtraButtonComponent>,
		secret: R.SecretComponent satisfies Ctor<[R.App, HTMLElement], O.SecretComponent>,
		notice: R.Notice satisfies Ctor<[string | DocumentFragment, number?], O.Notice>,
		normalizePath: R.normalizePath satisfies typeof O.normalizePath,
		setIcon: R.setIcon satisfies typeof O.setIcon,
		getIcon: R.getIcon satisfies typeof O.getIcon,
		addIcon: R.addIcon satisfies typeof O.addIcon,
		setTooltip: R.setTooltip satisfies (el: HTMLElement, tooltip: string) => void,
		requestUrl: R.requestUrl satisfies typeof O.requestUrl,
		debounce: R.debounce satisfies typeof O.debounce,
		getLanguage: R.getLanguage satisfies typeof O.getLanguage,
		platform: R.Platform satisfies typeof O.Platform,
		render: R.MarkdownRenderer.render satisfies (app: O.App, markdown: string, el: HTMLElement, sourcePath: string, component: O.Component) => Promise<void>,
		renderMarkdown: R.MarkdownRenderer.renderMarkdown satisfies typeof O.MarkdownRenderer.renderMarkdown,
		renderChild: R.MarkdownRenderChild satisfies Ctor<[HTMLElement], O.MarkdownRenderChild>,
		// Partly covered classes: the members the runtime has keep Obsidian's signatures.
		app: app satisfies Covered<O.App, "App">,
		workspace: app.workspace satisfies Covered<O.Workspace, "Workspace">,
		metadataCache: app.metadataCache satisfies Covered<O.MetadataCache, "MetadataCache">,
		getAllTags: R.getAllTags satisfies typeof O.getAllTags,
		parseFrontMatterAliases: R.parseFrontMatterAliases satisfies typeof O.parseFrontMatterAliases,
		parseFrontMatterTags: R.parseFrontMatterTags satisfies typeof O.parseFrontMatterTags,
		parseYaml: R.parseYaml satisfies typeof O.parseYaml,
		stringifyYaml: R.stringifyYaml satisfies typeof O.stringifyYaml,
		activeViewOfType: app.workspace.getActiveViewOfType.bind(app.workspace) satisfies O.Workspace["getActiveViewOfType"],
		leaf: leaf satisfies Covered<O.WorkspaceLeaf, "WorkspaceLeaf">,
		setting: new R.Setting(el) satisfies Covered<O.Setting, "Setting">,
		modal: new R.Modal(app) satisfies Covered<O.Modal, "Modal">,
		plugin: null as unknown as R.Plugin satisfies Covered<O.Plugin, "Plugin">,
		itemView: null as unknown as R.ItemView satisfies Covered<O.ItemView, "ItemView">,
		markdownView: null as unknown as R.MarkdownView satisfies Covered<O.MarkdownView, "MarkdownView">,
		editor: null as unknown as TestEditor satisfies Covered<O.Editor, "Editor">,
		settingTab: null as unknown as R.PluginSettingTab satisfies Covered<O.PluginSettingTab, "PluginSettingTab">,
		fileManager: app.fileManager satisfies Covered<O.FileManager, "FileManager">,
		manifest,
	};
}
