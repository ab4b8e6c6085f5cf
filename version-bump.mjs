// Keeps manifest.json and versions.json in step with package.json (run by `npm version`): the
// manifest takes the new version, and versions.json maps it to the current minAppVersion.
import { readFileSync, writeFileSync } from "node:fs";

const targetVersion = process.env.npm_package_version;
if (!targetVersion) {
	console.error("version-bump: run this through `npm version <patch|minor|major>`.");
	process.exit(1);
}

// Written back as the repository keeps them: two-space indent, a final newline.
const write = (file, data) => writeFileSync(file, JSON.stringify(data, null, 2) + "\n");

const manifest = JSON.parse(readFileSync("manifest.json", "utf8"));
const { minAppVersion } = manifest;
manifest.version = targetVersion;
write("manifest.json", manifest);

const versions = JSON.parse(readFileSync("versions.json", "utf8"));
versions[targetVersion] = minAppVersion;
write("versions.json", versions);
