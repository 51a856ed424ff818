import { cropFromPoints, cropLayout } from './crop';

const box = { left: 100, top: 50, width: 200, height: 100 };

describe('cropFromPoints', () => {
  it('turns a drawn rectangle into percents of the picture, whichever way it was drawn', () => {
    expect(cropFromPoints({ x: 220, y: 110 }, { x: 120, y: 60 }, box)).toEqual({ left: 10, top: 10, width: 50, height: 50 });
  });

  it('keeps the crop inside the picture', () => {
    expect(cropFromPoints({ x: 0, y: 0 }, { x: 1000, y: 1000 }, box)).toEqual({ left: 0, top: 0, width: 100, height: 100 });
    expect(cropFromPoints({ x: 250, y: 75 }, { x: 400, y: 300 }, box)).toEqual({ left: 75, top: 25, width: 25, height: 75 });
  });

  it('ignores a click or a sliver, and a picture without a size', () => {
    expect(cropFromPoints({ x: 150, y: 60 }, { x: 151, y: 90 }, box)).toBeNull();
    expect(cropFromPoints({ x: 0, y: 0 }, { x: 10, y: 10 }, { left: 0, top: 0, width: 0, height: 0 })).toBeNull();
  });
});

describe('cropLayout', () => {
  it('scales and shifts the picture so the crop fills a frame of the crop aspect ratio', () => {
    expect(cropLayout({ left: 25, top: 10, width: 50, height: 80 }, { width: 400, height: 200 })).toEqual({
      frame: { aspectRatio: '20000 / 16000' },
      image: { width: '200%', left: '-50%', top: '-12.5%' },
    });
  });
});
