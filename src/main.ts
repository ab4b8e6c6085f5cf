import { Plugin } from "obsidian";

export default class DiscoverPlugin extends Plugin {
	override async onload(): Promise<void> {
		await this.loadData();
	}
}
