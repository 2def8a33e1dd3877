#!/usr/bin/env node
// Part of `npm run build`: saves ajv's generated code for the bundled schemas beside the compiled
// schema module (dist/pipeline/pipeline-validator.cjs), so commands load the pipeline validator
// instead of compiling it at every start. It carries the digest of the schema files it was made
// from; src/pipeline/schema.ts uses it only while they are unchanged.
import { writeFileSync } from "node:fs";
import standalone from "ajv/dist/standalone/index.js";
import { compileBundledSchemas, PRECOMPILED_VALIDATOR, readSchemaTexts, schemasDigest } from "../dist/pipeline/schema.js";

const texts = readSchemaTexts();
const files = new Map([...texts].map(([name, text]) => [name, JSON.parse(text)]));
const { ajv, validate } = compileBundledSchemas(files, { source: true });
const code = standalone.default(ajv, validate);
const target = new URL(`../dist/pipeline/${PRECOMPILED_VALIDATOR}`, import.meta.url);
writeFileSync(target, `${code}\nmodule.exports.schemasDigest = ${JSON.stringify(schemasDigest(texts))};\n`);
