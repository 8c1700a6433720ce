import { boolRef, color, expr, int, nodeRef, num, numRef, oneOfEnum, pair } from '../../style/fields.js';
import { paintOp } from '../declare.js';
import { textCpu } from './cpu.js';
import { gpu } from './gpu.js';
import { ANCHORS, JUSTIFY } from './layout.js';
import { reachOf, textPlan } from './plan.js';
import { DEFAULT_FONT } from './fonts.js';

/** Fonts a `font` list may name (a fallback chain, not a font library). */
const MAX_FONTS = 8;
/** Text nodes one node may avoid. */
const MAX_AVOID = 8;

/**
 * Labels: a string per feature (text-expr) shaped by HarfBuzz, placed at points, along lines or at
 * polygons' poles of inaccessibility without overlapping (docs/format.md, "Text"), its glyph
 * outlines filled like any polygon. A label is drawn whole or not at all, and every tile that shows
 * it makes the same decision: placement depends only on the features within the node's reach.
 */
export const text = paintOp({
  name: 'text',
  description: 'labels: strings shaped and placed at points, along lines or in polygons, never cut at a tile edge',
  inputs: { avoid: ['raster'] },
  fields: {
    'text-expr': expr('string', 'the label of a feature: a map-style expression (["get", "name"], concat, upcase, to-string...)'),
    font: {
      anyOf: [
        { type: 'string', minLength: 1 },
        { type: 'array', items: { type: 'string', minLength: 1 }, minItems: 1, maxItems: MAX_FONTS },
      ],
      description:
        'a font asset (TTF, OTF, WOFF, WOFF2: a path relative to the style, http(s):// or npm:), or a list: each character takes the first font that has it. Default: DejaVu Sans, then Noto Sans Devanagari and Noto Sans Thai',
      'x-expect': 'a font path or a list of font paths',
    },
    size: numRef({ min: 0, default: 16, unit: 'px', description: 'the em size in pixels' }),
    'size-expr': expr('number', 'per-feature size in pixels; overrides size', 'px'),
    'size-max': num({ min: 0, unit: 'px', description: 'bound of size (an @node port) or size-expr, pixels; larger values clamp to it (at most 256)' }),
    color: color('text colour (default #000000)'),
    'color-expr': expr('color', 'per-feature text colour; overrides color'),
    'halo-color': color('halo colour (default #ffffff)'),
    'halo-width': numRef({ min: 0, max: 32, default: 0, unit: 'px', description: 'how far the halo reaches beyond the glyph outlines, pixels' }),
    'halo-blur': numRef({ min: 0, max: 16, default: 0, unit: 'px', description: 'the halo fades out over this many pixels, centred on halo-width' }),
    placement: oneOfEnum(['point', 'line', 'polygon'], 'point'),
    anchor: oneOfEnum(ANCHORS, 'center'),
    offset: pair({ default: [0, 0], unit: 'px', description: '[x, y] pixels moving a point label from its anchor (y down)' }),
    'max-width': numRef({ min: 0, default: 0, unit: 'px', description: 'point labels wrap at spaces to this width, pixels; 0: no wrapping' }),
    justify: oneOfEnum(JUSTIFY, 'center'),
    'letter-spacing': numRef({ min: -64, max: 64, default: 0, unit: 'px', description: 'pixels added between characters' }),
    'line-height': numRef({ min: 0.5, max: 4, default: 1.2, description: 'distance between baselines, in multiples of the size' }),
    spacing: numRef({ min: 1, default: 250, unit: 'px', description: 'pixels between repeated labels along a line' }),
    'max-angle': numRef({ min: 0, max: 180, default: 45, unit: 'deg', description: 'largest turn between neighbouring characters of a line label, degrees' }),
    'keep-upright': boolRef(true),
    'priority-expr': expr('number', 'per-feature rank: higher is placed first (default 0)'),
    padding: numRef({ min: 0, max: 64, default: 2, unit: 'px', description: 'pixels kept clear around each label' }),
    avoid: {
      type: 'array',
      items: nodeRef(),
      minItems: 1,
      maxItems: MAX_AVOID,
      description: 'text nodes whose placed labels this node keeps clear of',
      'x-expect': 'a list of text node references such as ["@places"]',
    },
    'max-extent': num({
      min: 1,
      max: 512,
      default: 128,
      unit: 'px',
      description:
        'the farthest any part of a label (its halo included) may reach from its anchor, pixels; a longer label is not drawn (and reported). Bounds the margin',
    }),
    rounds: int({ min: 1, max: 4, default: 2, description: 'placement rounds: more come closer to greedy placement and widen the margin' }),
  },
  required: ['text-expr'],
  paddingFields: ['max-extent', 'rounds'],
  // Features are read as far as a label's fate depends on them (plan.ts, placement.ts).
  pad: (bound, field) => (field === 'features' ? reachOf(bound('max-extent') ?? 128, bound('rounds') ?? 2) : 0),
  // Avoided nodes are read only through their placed labels, which must be decided wherever they
  // can meet this node's candidates: 2 E beyond those candidates' anchors.
  reach: (bound, field) => (field.startsWith('avoid/') ? reachOf(bound('max-extent') ?? 128, bound('rounds') ?? 2) + (bound('max-extent') ?? 128) : undefined),
  assetRefs: (node) => (node.font === undefined ? [...DEFAULT_FONT] : (Array.isArray(node.font) ? node.font : [node.font]).map(String)),
  // Labels paint source-over: a plain blend of a text node over a base paints onto the base.
  paintsOnto: true,
  // Whole features and tile pieces are all it reads where there are some (plan.ts gatherCandidates).
  readsWhole: ['features'],
  gpu,
  cpu: textCpu,
  // The workbench's label boxes: every candidate and whether it is placed, nothing drawn.
  decide: async (ctx) => (await textPlan(ctx, true)).placement,
});
