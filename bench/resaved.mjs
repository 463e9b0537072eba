// The JPEG development set (issue 24): photos as people send them, already compressed the way phones, web tools
// and editors write them, made from the corpus with Debian's libjpeg-turbo cjpeg (cached in bench/.cache/resaved):
// qualities 70 to 95, 4:2:0, 4:4:4 and grey, baseline and progressive, some downscaled, some saved twice, and
// the two classes a re-encoder loses on: grainy dark photos (low light) and smooth gradients. Three JPEGs of
// libjxl's test set in the corpus go in as they are. The set is split by master photo: decisions are tuned on
// the tuning part; the held-out part (other masters) is only looked at to check them. The confirm part (masters
// neither part uses) was added after the held-out part had been seen while tuning: it is run once a change is
// made, to confirm it, and never while tuning (`node bench/quality.mjs confirm`). The fresh part (masters no other
// part uses, from Debian's wallpaper and documentation packages) was added while tuning went on, for a change to be
// confirmed once on photos nobody tuning had seen (`node bench/quality.mjs fresh`); never run it while tuning. The
// unseen part (masters from Debian packages no other part uses) was made after the fresh part had been looked at:
// nobody tuning has seen its results; it is run only to confirm what tuning chose (`node bench/quality.mjs unseen`).
// The final part (masters from Debian packages no other part uses, weighted like traffic: mostly 4:2:0 phone and web
// JPEGs) was made after every other part had been seen: it is run once, on the session's final code, by whoever
// tuned, and never while tuning (`node bench/quality.mjs final`). The reserve part (masters from two more Debian
// packages) was made after the final part had been seen, and is run once likewise (`node bench/quality.mjs reserve`).
import { execFileSync, execSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensurePackages } from './tools.mjs';

const BRYCE = 'dwebp -quiet $C/webp/bryce.webp -ppm -o -';
const crop = (left, top, width, height) => `pamcut -left ${left} -top ${top} -width ${width} -height ${height}`;
const djpeg = (file) => `djpeg $C/${file}`;
const LANDSCAPE = djpeg('jpeg/exif-Landscape_1.jpg');
const KONQUI = 'pngtopnm $C/graphics/plasma-FlyingKonqui-2560x1600.png';
const SYMBOLIC = 'dwebp -quiet $C/webp/gnome-symbolic-l.webp -ppm -o -';
/** A file Debian's `name` package installs under /usr/share, decoded by `decode` (the package installed when missing). */
const debian = (name, path, decode = 'djpeg') => ({ package: name, file: `/usr/share/${path}`, from: `${decode} /usr/share/${path}` });
/** KDE Plasma's wallpapers (plasma-workspace-wallpapers 5.27; metadata.json: LGPL-3 unless said, Debian: GPL-2+). */
const plasma = (name, size = '2560x1600') => debian('plasma-workspace-wallpapers', `wallpapers/${name}/contents/images/${size}.jpg`);
/**
 * Ubuntu Touch's wallpapers, photos of 2018 (lomiri-wallpapers-16.04): Bridge (Sander Klootwijk) and Dragonfly
 * ("Bolly") CC-BY-SA-4.0, Aitzol Berasategi's CC-BY-4.0.
 */
const lomiri = (name) => debian('lomiri-wallpapers-16.04', `backgrounds/${name}.jpg`);
const piped = ({ from, ...source }, command) => ({ ...source, from: `${from} | ${command}` });
/** LXQt's wallpapers, photos (lxqt-themes 1.2.0; Debian: LGPL-2.1+). */
const lxqt = (name, decode = 'pngtopnm') => debian('lxqt-themes', `lxqt/wallpapers/${name}`, decode);
/** Ubuntu Kylin's wallpapers, renders (ukui-wallpapers 20.04.3; CC-BY-SA-3.0). */
const ukui = (name, decode = 'pngtopnm') => debian('ukui-wallpapers', `backgrounds/${name}`, decode);
/** MATE's nature photos of 2005 to 2008 (mate-backgrounds 1.26; each GPL-2+, by the authors its copyright names). */
const mateNature = (name) => debian('mate-backgrounds', `backgrounds/mate/nature/${name}.jpg`);
/** KStars's files (kstars-data 3.6.2; Debian: GPL-2+, its manual GFDL-1.2+). */
const kstars = (path, decode) => debian('kstars-data', path, decode);
/** Stellarium's landscape panoramas (stellarium-data 0.22; Debian: GPL-2+; each landscape.ini names its author). */
const stellarium = (path) => debian('stellarium-data', `stellarium/landscapes/${path}`, 'pngtopnm');
/** Marble's map textures (marble-data 22.12; Debian: LGPL-2.1+): NASA's Blue Marble and City Lights, a map of 1689. */
const marble = (path) => debian('marble-data', `marble/data/maps/earth/${path}`);

/**
 * name -> how it is made: `from` a shell pipeline from the corpus ($C) or a Debian package's `file` writing a PPM
 * (or PGM) to stdout, or `copy` a corpus JPEG as it is; `filter` a pixel filter below; `saves` the cjpeg options of
 * each save (a second one re-saves the first, decoded by djpeg); `part`.
 */
const SET = {
  'autumn-q75.jpg': { from: djpeg('photos/plasma-Autumn-2560x1600.jpg'), saves: ['-quality 75'], part: 'tuning' },
  'autumn-1600-q90-444-prog.jpg': { from: `${djpeg('photos/plasma-Autumn-2560x1600.jpg')} | pamscale -width 1600`, saves: ['-quality 90 -sample 1x1 -progressive'], part: 'tuning' },
  'cups-q85-prog.jpg': { from: djpeg('photos/plasma-ColorfulCups-2560x1600.jpg'), saves: ['-quality 85 -progressive'], part: 'tuning' },
  'cups-2048-twice-q92-q80.jpg': { from: `${djpeg('photos/plasma-ColorfulCups-2560x1600.jpg')} | pamscale -width 2048`, saves: ['-quality 92', '-quality 80'], part: 'tuning' },
  'hubble-q90-444.jpg': { from: djpeg('photos/skimage-hubble_deep_field.jpg'), saves: ['-quality 90 -sample 1x1'], part: 'tuning' },
  'dark-grain-bryce-q90-444.jpg': { from: `${BRYCE} | ${crop(0, 300, 2400, 1600)}`, filter: 'darkGrain', saves: ['-quality 90 -sample 1x1'], part: 'tuning' },
  'dark-grain-autumn-1920-q80.jpg': { from: `${djpeg('photos/plasma-Autumn-2560x1600.jpg')} | pamscale -width 1920`, filter: 'darkGrain', saves: ['-quality 80'], part: 'tuning' },
  'smooth-elarun-q90-444.jpg': { from: 'pngtopnm $C/graphics/plasma-Elarun-2560x1600.png', saves: ['-quality 90 -sample 1x1'], part: 'tuning' },
  'smooth-elarun-1920-twice-q90-q75.jpg': { from: 'pngtopnm $C/graphics/plasma-Elarun-2560x1600.png | pamscale -width 1920', saves: ['-quality 90', '-quality 75'], part: 'tuning' },
  'smooth-pastel-bryce-q85-prog.jpg': { from: `${BRYCE} | ${crop(4400, 400, 2400, 1600)}`, filter: 'pastelSmooth', saves: ['-quality 85 -progressive'], part: 'tuning' },
  'grey-bryce-q75.jpg': { from: `${BRYCE} | ${crop(2200, 200, 2400, 1600)} | ppmtopgm`, saves: ['-quality 75'], part: 'tuning' },
  'motorcycle-q70.jpg': { from: 'pngtopnm $C/photos/skimage-motorcycle_left.png', saves: ['-quality 70'], part: 'tuning' },
  'retina-q95.jpg': { from: djpeg('photos/skimage-retina.jpg'), saves: ['-quality 95'], part: 'tuning' },
  'rocket-twice-q85-q75.jpg': { from: djpeg('photos/skimage-rocket.jpg'), saves: ['-quality 85', '-quality 75'], part: 'tuning' },
  'astronaut-q80-444-prog.jpg': { from: 'pngtopnm $C/photos/skimage-astronaut.png', saves: ['-quality 80 -sample 1x1 -progressive'], part: 'tuning' },
  'bryce-4000-q92.jpg': { from: `${BRYCE} | ${crop(6000, 0, 4000, 2156)}`, saves: ['-quality 92'], part: 'tuning' },

  'kite-q90-444.jpg': { from: djpeg('photos/plasma-Kite-2560x1600.jpg'), saves: ['-quality 90 -sample 1x1'], part: 'held-out' },
  'kite-1600-q75-444-prog.jpg': { from: `${djpeg('photos/plasma-Kite-2560x1600.jpg')} | pamscale -width 1600`, saves: ['-quality 75 -sample 1x1 -progressive'], part: 'held-out' },
  'smooth-pastel-kite-q90-444.jpg': { from: djpeg('photos/plasma-Kite-2560x1600.jpg'), filter: 'pastelSmooth', saves: ['-quality 90 -sample 1x1'], part: 'held-out' },
  'dark-grain-bryce-right-q90-444.jpg': { from: `${BRYCE} | ${crop(8700, 200, 2400, 1600)}`, filter: 'darkGrain', saves: ['-quality 90 -sample 1x1'], part: 'held-out' },
  'coffee-twice-q90-q80.jpg': { from: 'pngtopnm $C/photos/skimage-coffee.png', saves: ['-quality 90', '-quality 80'], part: 'held-out' },
  'chelsea-q95-444.jpg': { from: 'pngtopnm $C/photos/skimage-chelsea.png', saves: ['-quality 95 -sample 1x1'], part: 'held-out' },
  'wood-3072-q88-prog.jpg': { from: 'dwebp -quiet $C/webp/gnome-wood-d.webp -ppm -o - | pamscale -width 3072', saves: ['-quality 88 -progressive'], part: 'held-out' },
  'wood-1920-twice-q85-q70.jpg': { from: 'dwebp -quiet $C/webp/gnome-wood-d.webp -ppm -o - | pamscale -width 1920', saves: ['-quality 85', '-quality 70'], part: 'held-out' },
  'flower-im_q85_444.jpg': { copy: 'jpeg/flower-im_q85_444.jpg', part: 'held-out' },
  'flower-im_q85_gray.jpg': { copy: 'jpeg/flower-im_q85_gray.jpg', part: 'held-out' },
  'flower-im_q85_420_progr.jpg': { copy: 'jpeg/flower-im_q85_420_progr.jpg', part: 'held-out' },

  'konqui-q90-444.jpg': { from: KONQUI, saves: ['-quality 90 -sample 1x1'], part: 'confirm' },
  'smooth-pastel-landscape-q90-444.jpg': { from: LANDSCAPE, filter: 'pastelSmooth', saves: ['-quality 90 -sample 1x1'], part: 'confirm' },
  'symbolic-2400-q90-444-prog.jpg': { from: `${SYMBOLIC} | ${crop(800, 1200, 2400, 1600)}`, saves: ['-quality 90 -sample 1x1 -progressive'], part: 'confirm' },
  'dark-grain-landscape-q90-444.jpg': { from: LANDSCAPE, filter: 'darkGrain', saves: ['-quality 90 -sample 1x1'], part: 'confirm' },
  'dark-grain-konqui-1920-q85.jpg': { from: `${KONQUI} | pamscale -width 1920`, filter: 'darkGrain', saves: ['-quality 85'], part: 'confirm' },
  'grey-landscape-q88.jpg': { from: `${LANDSCAPE} | ppmtopgm`, saves: ['-quality 88'], part: 'confirm' },
  'grey-camera-q90-prog.jpg': { from: 'pngtopnm $C/graphics/skimage-camera.png', saves: ['-quality 90 -progressive'], part: 'confirm' },
  'landscape-q93.jpg': { from: LANDSCAPE, saves: ['-quality 93'], part: 'confirm' },
  'landscape-1280-twice-q95-q82.jpg': { from: `${LANDSCAPE} | pamscale -width 1280`, saves: ['-quality 95', '-quality 82'], part: 'confirm' },
  'konqui-1920-twice-q90-q78-prog.jpg': { from: `${KONQUI} | pamscale -width 1920`, saves: ['-quality 90', '-quality 78 -progressive'], part: 'confirm' },
  'symbolic-2048-q85.jpg': { from: `${SYMBOLIC} | pamscale -width 2048`, saves: ['-quality 85'], part: 'confirm' },
  'extreme-q80.jpg': { from: 'dwebp -quiet $C/webp/lossy_extreme_probabilities.webp -ppm -o -', saves: ['-quality 80'], part: 'confirm' },

  // The classes a re-encoder loses on first (4:4:4 saved at about 90: smooth gradients; fine grain and dark), then
  // phone photos (4:2:0, a 13 MP one), grey, progressive, saved twice, a screenshot, qualities 70 to 95.
  'smooth-summer-1am-q90-444.jpg': { ...plasma('summer_1am'), saves: ['-quality 90 -sample 1x1'], part: 'fresh' },
  'smooth-cold-ripple-q92-444-prog.jpg': { ...plasma('ColdRipple'), saves: ['-quality 92 -sample 1x1 -progressive'], part: 'fresh' },
  'smooth-pastel-bridge-2560-q90-444.jpg': { ...piped(lomiri('Bridge_by_Sander_Klootwijk'), 'pamscale -width 2560'), filter: 'pastelSmooth', saves: ['-quality 90 -sample 1x1'], part: 'fresh' },
  // Volna is a render (CC-BY-SA-4.0): gradients under a fine dither grain, cropped at full size to keep the grain.
  'smooth-volna-q90-444.jpg': { ...piped(plasma('Volna', '5120x2880'), crop(1280, 640, 2560, 1600)), saves: ['-quality 90 -sample 1x1'], part: 'fresh' },
  'dark-grain-path-q90-444.jpg': { ...plasma('Path'), filter: 'darkGrain', saves: ['-quality 90 -sample 1x1'], part: 'fresh' },
  'dark-grain-life-2560-q88-444.jpg': { ...piped(lomiri('life_by_Aitzol_Berasategi'), 'pamscale -width 2560'), filter: 'darkGrain', saves: ['-quality 88 -sample 1x1'], part: 'fresh' },
  // A storm at dusk (mate-backgrounds 1.26, GPL-2+): dark and low-key as photographed.
  'dark-storm-q90-444.jpg': { ...debian('mate-backgrounds', 'backgrounds/mate/nature/Storm.jpg'), saves: ['-quality 90 -sample 1x1'], part: 'fresh' },
  'dragonfly-q92.jpg': { ...lomiri('Dragonfly_by_Bolly'), saves: ['-quality 92'], part: 'fresh' },
  'picos-de-europa-q87.jpg': { ...lomiri('picosdeeuropa_by_Aitzol_Berasategi'), saves: ['-quality 87'], part: 'fresh' },
  'evening-glow-q80.jpg': { ...plasma('EveningGlow'), saves: ['-quality 80'], part: 'fresh' },
  'grey-architecture-q85.jpg': { ...piped(plasma('Grey'), 'ppmtopgm'), saves: ['-quality 85'], part: 'fresh' },
  'fallen-leaf-2048-twice-q92-q78.jpg': { ...piped(plasma('FallenLeaf'), 'pamscale -width 2048'), saves: ['-quality 92', '-quality 78'], part: 'fresh' },
  'aitzgorri-2560-q75-prog.jpg': { ...piped(lomiri('aitzgorri_by_Aitzol_Berasategi'), 'pamscale -width 2560'), saves: ['-quality 75 -progressive'], part: 'fresh' },
  'one-stands-out-q70.jpg': { ...plasma('OneStandsOut'), saves: ['-quality 70'], part: 'fresh' },
  'by-the-water-q95.jpg': { ...plasma('BytheWater'), saves: ['-quality 95'], part: 'fresh' },
  // Firefox on an Xfce desktop, from the Debian Edu manual (debian-edu-doc-en, GPL-2+).
  'screenshot-browser-q85.jpg': { ...debian('debian-edu-doc-en', 'doc/debian-edu-doc-en/debian-edu-bookworm-manual-images/26-Tjener-Xfce_Desktop_Browser.png', 'pngtopnm'), saves: ['-quality 85'], part: 'fresh' },

  // Traffic as it comes: phone-size photos (about 9 to 12 MP, 4:2:0 at 88 to 95, as phones write them), web JPEGs
  // re-saved at 70 to 85 (4:2:0, some twice), 4:4:4 at 88 to 92 with smooth gradients, grain or low light, grey,
  // progressive, a screenshot. Ubuntu Touch 20.04's photos (lomiri-wallpapers-20.04 20.04.0, CC-BY-SA-3.0): a
  // nuthatch on a trunk (Lukas Baubkus, 6028x3391) cropped to a 12 MP phone's 4032x3024, the Milky Way over the sea
  // (Aury88, 4096x4096) cropped to 4:3.
  'kleiber-4032-q92.jpg': { ...piped(debian('lomiri-wallpapers-20.04', 'backgrounds/Kleiber_by_Lukas_Baubkus.jpg'), crop(998, 183, 4032, 3024)), saves: ['-quality 92'], part: 'unseen' },
  'infinite-sea-4096-q88.jpg': { ...piped(debian('lomiri-wallpapers-20.04', 'backgrounds/Infinite-Sea_by_Aury88.jpg'), crop(0, 512, 4096, 3072)), saves: ['-quality 88'], part: 'unseen' },
  'smooth-fluent-color-q95.jpg': { ...ukui('fluent-color.png'), saves: ['-quality 95'], part: 'unseen' },
  'ribbon-q90.jpg': { ...ukui('2004default.jpg', 'djpeg'), saves: ['-quality 90'], part: 'unseen' },
  'after-the-rain-2048-q80.jpg': { ...piped(lxqt('after-the-rain.jpg', 'djpeg'), 'pamscale -width 2048'), saves: ['-quality 80'], part: 'unseen' },
  'appleflower-1600-twice-q90-q75.jpg': { ...piped(lxqt('appleflower.png'), 'pamscale -width 1600'), saves: ['-quality 90', '-quality 75'], part: 'unseen' },
  'fog-q72.jpg': { ...lxqt('fog.jpg', 'djpeg'), saves: ['-quality 72'], part: 'unseen' },
  'valendas-1280-twice-q85-q70-prog.jpg': { ...piped(lxqt('Valendas.png'), 'pamscale -width 1280'), saves: ['-quality 85', '-quality 70 -progressive'], part: 'unseen' },
  'hills-q85-prog.jpg': { ...lxqt('this-is-not-windows.jpg', 'djpeg'), saves: ['-quality 85 -progressive'], part: 'unseen' },
  'smooth-calla-2560-q90-444.jpg': { ...piped(ukui('calla.png'), 'pamscale -width 2560'), saves: ['-quality 90 -sample 1x1'], part: 'unseen' },
  // Xfce's teal backdrop (xfdesktop4-data 4.18.1, GPL-2+): gradients only.
  'smooth-xfce-teal-2560-q92-444-prog.jpg': { ...piped(debian('xfdesktop4-data', 'backgrounds/xfce/xfce-teal.jpg'), 'pamscale -width 2560'), saves: ['-quality 92 -sample 1x1 -progressive'], part: 'unseen' },
  'smooth-pastel-cloud-q90-444.jpg': { ...lxqt('cloud.png'), filter: 'pastelSmooth', saves: ['-quality 90 -sample 1x1'], part: 'unseen' },
  'dark-grain-flowers-q90-444.jpg': { ...lxqt('flowers.png'), filter: 'darkGrain', saves: ['-quality 90 -sample 1x1'], part: 'unseen' },
  // Sunbeams over misty hills, low-key as photographed (a 5 MP camera's 2592x1944).
  'dark-beam-q88-444.jpg': { ...lxqt('beam.png'), saves: ['-quality 88 -sample 1x1'], part: 'unseen' },
  'grey-drop-q88-prog.jpg': { ...piped(lxqt('drop.png'), 'ppmtopgm'), saves: ['-quality 88 -progressive'], part: 'unseen' },
  // KDE Plasma's desktop with its menu open, from the Debian Administrator's Handbook (debian-handbook 11.20220922,
  // GPL-2.0+ or CC-BY-SA-3.0).
  'screenshot-kde-q90.jpg': { ...debian('debian-handbook', 'doc/debian-handbook/html/en-US/images/kde.png', 'pngtopnm'), saves: ['-quality 90'], part: 'unseen' },

  // Traffic as it comes, weighted as it is (mostly 4:2:0 phone and web JPEGs), from Debian packages no other part uses.
  // Phone-size: a red hill over a lake that a phone took at 4032x3024 (digiKam's about page, digikam-data 7.9.0,
  // GPL-2+); Wyng Stancikaite's elephants, a painting of 5640x3172 (mate-backgrounds 1.26, GPL-2+), cropped to 4:3; the
  // night sky with constellation lines over a mountain ridge (KStars Lite's splash, 4245x2388), cropped to a phone's
  // 16:9; GNOME's licorice render (gnome-backgrounds 43.1; Debian: GPL-2+), cropped to 4:3.
  'lake-4032-q92.jpg': { ...debian('digikam-data', 'digikam/about/images/body-background.jpg'), saves: ['-quality 92'], part: 'final' },
  'elephants-4032-q95.jpg': { ...piped(debian('mate-backgrounds', 'backgrounds/mate/abstract/Elephants_5640x3172.jpg'), crop(804, 74, 4032, 3024)), saves: ['-quality 95'], part: 'final' },
  'night-sky-4032-q88-prog.jpg': { ...piped(kstars('kstars/kstarslite/qml/images/splash_bg@4x.jpeg'), crop(106, 60, 4032, 2268)), saves: ['-quality 88 -progressive'], part: 'final' },
  'licorice-4032-q93.jpg': { ...piped(debian('gnome-backgrounds', 'backgrounds/gnome/licorice-d.webp', 'dwebp -quiet -ppm -o -'), crop(32, 536, 4032, 3024)), saves: ['-quality 93'], part: 'final' },
  // Web JPEGs: MATE's nature photos, some downscaled, two saved twice.
  'ladybird-twice-q90-q78.jpg': { ...mateNature('LadyBird'), saves: ['-quality 90', '-quality 78'], part: 'final' },
  'raindrops-1600-twice-q85-q75.jpg': { ...piped(mateNature('RainDrops'), 'pamscale -width 1600'), saves: ['-quality 85', '-quality 75'], part: 'final' },
  'two-wings-1920-q77.jpg': { ...piped(mateNature('TwoWings'), 'pamscale -width 1920'), saves: ['-quality 77'], part: 'final' },
  'dune-1280-q83.jpg': { ...piped(mateNature('Dune'), 'pamscale -width 1280'), saves: ['-quality 83'], part: 'final' },
  'wood-2048-q84-prog.jpg': { ...piped(mateNature('Wood'), 'pamscale -width 2048'), saves: ['-quality 84 -progressive'], part: 'final' },
  'green-meadow-q70.jpg': { ...mateNature('GreenMeadow'), saves: ['-quality 70'], part: 'final' },
  // 4:4:4 at 88 to 92: Ubuntu's first wallpaper, a smooth gradient render (lomiri-wallpapers 20.04.0, CC-BY-SA-3.0,
  // Nathaniel McCallum); a pastel, a grainy dark one; a yellow flower on black, low-key as photographed.
  'smooth-warty-2560-q90-444.jpg': { ...piped(debian('lomiri-wallpapers', 'backgrounds/warty-final-ubuntu.png', 'pngtopnm'), 'pamscale -width 2560'), saves: ['-quality 90 -sample 1x1'], part: 'final' },
  'smooth-pastel-garden-q88-444.jpg': { ...mateNature('Garden'), filter: 'pastelSmooth', saves: ['-quality 88 -sample 1x1'], part: 'final' },
  'dark-grain-blinds-q91-444.jpg': { ...mateNature('Blinds'), filter: 'darkGrain', saves: ['-quality 91 -sample 1x1'], part: 'final' },
  'dark-yellow-flower-q89-444.jpg': { ...mateNature('YellowFlower'), saves: ['-quality 89 -sample 1x1'], part: 'final' },
  'grey-aqua-q87.jpg': { ...piped(mateNature('Aqua'), 'ppmtopgm'), saves: ['-quality 87'], part: 'final' },
  // KStars's focus module on a HiDPI screen, from its manual.
  'screenshot-kstars-focus-q85.jpg': { ...kstars('doc/HTML/en/kstars/ekos_focus.png', 'pngtopnm'), saves: ['-quality 85'], part: 'final' },

  // Held in reserve (made in round 7, after every other part had been seen, and run once on that round's final code),
  // from two Debian packages no other part uses, for what that round changed: dense 4:4:4 sources (detail, grain) at 88
  // to 92, sources saved at 70 to 75 (whose re-encodes stay near their own steps), high-quality 4:2:0, grey, dark.
  // Spirit's "Husband Hill" panorama of Mars (NASA/JPL-Caltech/Cornell, Michael Smith): a smooth sky over rocks and
  // the rover's deck; its ground alone, cropped. A field at Grossmugl (Guenther Wuchterl), a roof at Garching, Apollo
  // 17's landing site (grey). Earth at night, Earth by day, and Schagen's map of the world of 1689, scanned.
  'mars-q90-444.jpg': { ...stellarium('mars/mars.png'), saves: ['-quality 90 -sample 1x1'], part: 'reserve' },
  'mars-ground-q93.jpg': { ...piped(stellarium('mars/mars.png'), crop(0, 480, 2048, 544)), saves: ['-quality 93'], part: 'reserve' },
  'map-1689-q92-444.jpg': { ...marble('schagen1689/schagen1689.jpg'), saves: ['-quality 92 -sample 1x1'], part: 'reserve' },
  'map-1689-q70.jpg': { ...marble('schagen1689/schagen1689.jpg'), saves: ['-quality 70'], part: 'reserve' },
  'dark-grain-city-lights-q90-444.jpg': { ...marble('citylights/citylights.jpg'), filter: 'darkGrain', saves: ['-quality 90 -sample 1x1'], part: 'reserve' },
  'city-lights-q80.jpg': { ...marble('citylights/citylights.jpg'), saves: ['-quality 80'], part: 'reserve' },
  'blue-marble-q88-444-prog.jpg': { ...marble('bluemarble/bluemarble.jpg'), saves: ['-quality 88 -sample 1x1 -progressive'], part: 'reserve' },
  'blue-marble-twice-q85-q72.jpg': { ...marble('bluemarble/bluemarble.jpg'), saves: ['-quality 85', '-quality 72'], part: 'reserve' },
  'grossmugl-q70.jpg': { ...stellarium('grossmugl/grossmugl_leeberg_crop11.25_2048.png'), saves: ['-quality 70'], part: 'reserve' },
  'garching-twice-q85-q75-prog.jpg': { ...stellarium('garching/garching-gl2.png'), saves: ['-quality 85', '-quality 75 -progressive'], part: 'reserve' },
  'grey-apollo-17-q85-prog.jpg': { ...stellarium('moon/apollo17.png'), saves: ['-quality 85 -progressive'], part: 'reserve' },
  'smooth-pastel-mars-q90-444.jpg': { ...stellarium('mars/mars.png'), filter: 'pastelSmooth', saves: ['-quality 90 -sample 1x1'], part: 'reserve' },
};

/** The development set's parts; without a part named, the development set is the first two (the others run alone). */
export const RESAVED_PARTS = ['tuning', 'held-out', 'confirm', 'fresh', 'unseen', 'final', 'reserve'];
const ALONE = new Set(['confirm', 'fresh', 'unseen', 'final', 'reserve']);

/** A binary PPM (P6) or PGM (P5) with maxval 255: its samples and what to write them back with. */
export function readPnm(bytes) {
  const text = bytes.subarray(0, 64).toString('latin1');
  const match = /^(P[56])\s+(\d+)\s+(\d+)\s+255\s/.exec(text);
  if (!match) throw new Error('resaved: expected an 8-bit binary PPM or PGM');
  const [head, magic, width, height] = match;
  return { magic, width: Number(width), height: Number(height), channels: magic === 'P6' ? 3 : 1, samples: new Uint8Array(bytes.subarray(head.length)), head };
}

export const writePnm = ({ head, samples }) => Buffer.concat([Buffer.from(head, 'latin1'), samples]);

/** A seeded normal variate (xorshift32, Box-Muller), so the set is the same on every machine. */
function gaussian(seed) {
  let s = seed >>> 0 || 1;
  const uniform = () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return (s + 1) / 4294967297;
  };
  return () => Math.sqrt(-2 * Math.log(uniform())) * Math.cos(2 * Math.PI * uniform());
}

const clamp = (v) => (v < 0 ? 0 : v > 255 ? 255 : Math.round(v));

export const FILTERS = {
  /**
   * A low-light phone photo: a dark, contrasty tone curve (mean luma about a fifth of full scale) and sensor
   * grain, luma noise of sigma 5 levels shared by the channels and chroma noise of sigma 2.5 per channel.
   */
  darkGrain(image) {
    const noise = gaussian(24);
    const { samples, channels } = image;
    for (let i = 0; i < samples.length; i += channels) {
      const luma = 5 * noise();
      for (let c = 0; c < channels; c++) samples[i + c] = clamp(255 * 0.45 * (samples[i + c] / 255) ** 2.2 + luma + 2.5 * noise());
    }
    return image;
  },
  /**
   * A smooth pastel picture: the photo averaged over 16x16 cells and interpolated back bilinearly (gradients
   * without texture), lifted towards a light grey by 45 % (pastel), and a light dither of sigma 0.7 levels.
   */
  pastelSmooth(image) {
    const { width, height, channels, samples } = image;
    const cell = 16;
    const cw = Math.ceil(width / cell);
    const ch = Math.ceil(height / cell);
    const means = new Float64Array(cw * ch * channels);
    const counts = new Float64Array(cw * ch);
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const k = Math.floor(y / cell) * cw + Math.floor(x / cell);
        counts[k]++;
        for (let c = 0; c < channels; c++) means[k * channels + c] += samples[(y * width + x) * channels + c];
      }
    }
    for (let k = 0; k < counts.length; k++) for (let c = 0; c < channels; c++) means[k * channels + c] /= counts[k];
    const noise = gaussian(85);
    const at = (cx, cy, c) => means[(Math.min(cy, ch - 1) * cw + Math.min(cx, cw - 1)) * channels + c];
    for (let y = 0; y < height; y++) {
      const fy = Math.max(0, (y + 0.5) / cell - 0.5);
      const y0 = Math.floor(fy);
      const ty = fy - y0;
      for (let x = 0; x < width; x++) {
        const fx = Math.max(0, (x + 0.5) / cell - 0.5);
        const x0 = Math.floor(fx);
        const tx = fx - x0;
        for (let c = 0; c < channels; c++) {
          const top = at(x0, y0, c) * (1 - tx) + at(x0 + 1, y0, c) * tx;
          const bottom = at(x0, y0 + 1, c) * (1 - tx) + at(x0 + 1, y0 + 1, c) * tx;
          const smooth = top * (1 - ty) + bottom * ty;
          samples[(y * width + x) * channels + c] = clamp(smooth * 0.55 + 230 * 0.45 + 0.7 * noise());
        }
      }
    }
    return image;
  },
};

/**
 * The development set's JPEGs, made once from the corpus into `cache`/resaved: [{ name, file, part }] in a fixed
 * order, tuning part first. `part` (one of RESAVED_PARTS) names one; without it, tuning and held-out.
 */
export function resavedPhotos(cache, corpus, part) {
  const dir = join(cache, 'resaved');
  mkdirSync(dir, { recursive: true });
  const photos = [];
  for (const [name, recipe] of Object.entries(SET)) {
    if (part ? recipe.part !== part : ALONE.has(recipe.part)) continue;
    const file = join(dir, name);
    if (!existsSync(file)) make(recipe, corpus, file);
    photos.push({ name, file, part: recipe.part });
  }
  return photos;
}

function make({ from, copy, filter, saves, package: name, file: master }, corpus, file) {
  if (copy) return copyFileSync(join(corpus, copy), file);
  if (name) ensurePackages([name]);
  if (master && !existsSync(master)) throw new Error(`resaved: ${master} is missing although Debian's ${name} is installed (reinstall it)`);
  const shell = (command, input) => execSync(command.replaceAll('$C', corpus), { input, maxBuffer: 1 << 30, stdio: ['pipe', 'pipe', 'inherit'] });
  let pixels = shell(from);
  if (filter) pixels = writePnm(FILTERS[filter](readPnm(pixels)));
  let jpeg;
  for (const options of saves) {
    jpeg = execFileSync('cjpeg', [...options.split(' '), ...(readPnm(pixels).channels === 1 ? ['-grayscale'] : [])], { input: pixels, maxBuffer: 1 << 30 });
    pixels = execFileSync('djpeg', [], { input: jpeg, maxBuffer: 1 << 30 });
  }
  writeFileSync(`${file}.tmp`, jpeg);
  renameSync(`${file}.tmp`, file);
}
