test('math', () => {
  const a = new Float32Array(1e6); for (let i = 0; i < a.length; i++) a[i] = Math.random() * 100;
  for (let k = 0; k < 2; k++) {
    let t0 = performance.now(); let s = 0;
    for (let j = 0; j < 5; j++) for (let i = 0; i < a.length; i++) s += a[i]!;
    console.log('plain', (performance.now() - t0).toFixed(0));
    t0 = performance.now(); s = 0;
    for (let j = 0; j < 5; j++) for (let i = 0; i < a.length; i++) s += Math.floor(a[i]!);
    console.log('floor', (performance.now() - t0).toFixed(0));
    t0 = performance.now(); s = 0;
    for (let j = 0; j < 5; j++) for (let i = 0; i < a.length; i++) s += Math.max(0, a[i]!);
    console.log('max', (performance.now() - t0).toFixed(0));
    const u = new Uint32Array(400);
    t0 = performance.now();
    for (let j = 0; j < 5; j++) for (let i = 0; i < a.length; i++) u[(a[i]! | 0) + 1]!++;
    console.log('incr', (performance.now() - t0).toFixed(0));
  }
});
