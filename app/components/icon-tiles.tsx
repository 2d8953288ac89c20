import type { ComponentType } from "react";

export type IconTile = { title: string; text: string; icon: ComponentType };

/**
 * A list of small tiles, each an icon, a heading and a line of text: the
 * landing page's benefits and newsletter perks, and the delivery promises.
 * `iconClassName` puts the icon in a styled badge.
 */
export function IconTiles({
  tiles,
  className,
  itemClassName,
  iconClassName,
}: {
  tiles: readonly IconTile[];
  className: string;
  itemClassName?: string;
  iconClassName?: string;
}) {
  return (
    <ul className={className}>
      {tiles.map(({ title, text, icon: Icon }) => (
        <li key={title} className={itemClassName}>
          {iconClassName ? (
            <span className={iconClassName}>
              <Icon />
            </span>
          ) : (
            <Icon />
          )}
          <h3>{title}</h3>
          <p>{text}</p>
        </li>
      ))}
    </ul>
  );
}
