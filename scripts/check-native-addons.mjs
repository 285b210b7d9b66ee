// Loads every native addon (*.node) under node_modules with the Node running this script. The project
// shares one node_modules across Node versions, which only works while every addon is a Node-API build
// (one binary for all versions); an addon compiled by node-gyp against one Node's ABI refuses to load on
// another ("compiled against a different Node.js version"), and this says which one.
import { readdirSync } from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");

function findAddons(dir) {
  const found = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory() && entry.name !== ".cache") found.push(...findAddons(full));
    else if (entry.isFile() && entry.name.endsWith(".node")) found.push(full);
  }
  return found;
}

const addons = findAddons(path.join(root, "node_modules"));
const failures = [];
for (const file of addons) {
  try {
    process.dlopen({ exports: {} }, file);
  } catch (error) {
    failures.push(`${path.relative(root, file)}: ${error.message.replace(/\s+/g, " ")}`);
  }
}
if (failures.length > 0) {
  console.error(`Native addons that do not load on Node ${process.version}:\n${failures.join("\n")}`);
  process.exit(1);
}
console.log(
  `All ${addons.length} native addons load on Node ${process.version}: ` +
    addons.map((file) => path.relative(path.join(root, "node_modules"), path.dirname(file))).join(", "),
);
