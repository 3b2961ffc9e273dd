"use client";

import { useCallback, useEffect, useRef } from "react";

/**
 * A chat scroller that follows its bottom while the reader is there. `atBottom` is kept by `onScroll`
 * (within `stickyPx` of the end counts); images that load after layout push the bottom down, and are
 * followed while at the bottom.
 */
export function useStickToBottom<T extends HTMLElement>(stickyPx: number) {
  const scroller = useRef<T>(null);
  const atBottom = useRef(true);

  useEffect(() => {
    const element = scroller.current;
    if (!element) return;
    const onLoad = () => {
      if (atBottom.current) element.scrollTop = element.scrollHeight;
    };
    element.addEventListener("load", onLoad, true);
    return () => element.removeEventListener("load", onLoad, true);
  }, []);

  /** Recomputes atBottom from the scroll position; returns it. */
  const onScroll = useCallback(() => {
    const element = scroller.current;
    if (element) atBottom.current = element.scrollHeight - element.scrollTop - element.clientHeight < stickyPx;
    return atBottom.current;
  }, [stickyPx]);

  return { scroller, atBottom, onScroll };
}
