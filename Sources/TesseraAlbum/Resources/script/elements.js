// Elements made in script, as the pages' own are: a photo's badges.
/* exported badge, element, stackBadge */
// Motion.badge: LIVE or ▶, marked ⤓ when the browser cannot play it (a click offers the file).
const badge = (video) => element('span', {className: 'badge',
  textContent: `${video.playable ? '' : '⤓ '}${video.live ? 'LIVE' : '▶'}`,
  title: video.playable ? '' : 'Browsers do not play this format: download it to watch'});
// StackWording.badge: how many files the tile stands for.
const stackBadge = (stack) => element('span', {className: 'badge stack', textContent: `${stack.photos.length + 1}`,
  title: stack.title});
const element = (tag, props = {}, ...children) => {
  const node = Object.assign(document.createElement(tag), props);
  node.append(...children);
  return node;
};
