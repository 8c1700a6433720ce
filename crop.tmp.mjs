import sharp from 'sharp';
const [src, l, t, w, h, out] = process.argv.slice(2);
await sharp(src).extract({ left: +l, top: +t, width: +w, height: +h }).resize(+w * 6, +h * 6, { kernel: 'nearest' }).png().toFile(out);
