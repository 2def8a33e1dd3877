#!/usr/bin/env node
// Part of `npm run build`: saves ajv's generated code beside the compiled schema modules, so commands
// load it instead of compiling it at every start: the validator of the bundled schemas
// (dist/pipeline/pipeline-validator.cjs, with the digest of the schema files it was made from;
// src/pipeline/schema.ts uses it only while they are unchanged), and the check of the JSON Schemas
// written inside pipelines against ajv's meta-schema (dist/pipeline/user-schema-meta-validator.cjs,
// with the versions of ajv and ajv-formats it was made with; src/pipeline/user-schema-check.ts).
import { writeFileSync } from "node:fs";
import standalone from "ajv/dist/standalone/index.js";
import { compileBundledSchemas, newUserSchemaAjv, PRECOMPILED_VALIDATOR, readSchemaTexts, schemasDigest } from "../dist/pipeline/schema.js";
import { installedVersions, PRECOMPILED_META_VALIDATOR } from "../dist/pipeline/user-schema-check.js";

const texts = readSchemaTexts();
const files = new Map([...texts].map(([name, text]) => [name, JSON.parse(text)]));
const { ajv, validate } = compileBundledSchemas(files, { source: true });
const code = standalone.default(ajv, validate);
const target = new URL(`../dist/pipeline/${PRECOMPILED_VALIDATOR}`, import.meta.url);
writeFileSync(target, `${code}\nmodule.exports.schemasDigest = ${JSON.stringify(schemasDigest(texts))};\n`);

// The check of the JSON Schemas users write in pipelines against ajv's meta-schema, as the lenient
// instance generates it (src/pipeline/user-schema-check.ts), with the versions it was made with.
const userAjv = newUserSchemaAjv({ source: true });
const meta = userAjv.getSchema(userAjv.defaultMeta());
const metaTarget = new URL(`../dist/pipeline/${PRECOMPILED_META_VALIDATOR}`, import.meta.url);
const versions = installedVersions();
writeFileSync(metaTarget, `${standalone.default(userAjv, meta)}\nmodule.exports.ajvVersion = ${JSON.stringify(versions.ajv)};\nmodule.exports.ajvFormatsVersion = ${JSON.stringify(versions.ajvFormats)};\n`);
