// Writes schema/style.schema.json (the format's JSON Schema) and docs/ops.md from the built package.
import { writeFileSync, mkdirSync } from 'node:fs';
import { styleSchema } from '../dist/index.js';
import { opsMarkdown } from '../dist/style/ops-doc.js';

mkdirSync(new URL('../schema/', import.meta.url), { recursive: true });
writeFileSync(new URL('../schema/style.schema.json', import.meta.url), JSON.stringify(styleSchema(), null, 2) + '\n');
writeFileSync(new URL('../docs/ops.md', import.meta.url), opsMarkdown());
