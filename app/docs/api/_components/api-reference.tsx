"use client";
// The reference library (Vue inside, about as big as the rest of the site's scripts together) is a
// chunk of its own, loaded by this page alone and only in the browser: no other page's bundle
// holds it, and the server never renders it.
import dynamic from "next/dynamic";
import styles from "./api-reference.module.css";

const ScalarReference = dynamic(() => import("./scalar-reference"), {
  ssr: false,
  loading: () => (
    <p role="status" className="hint">
      Loading the API reference…
    </p>
  ),
});

export function ApiReference() {
  return (
    <div className={styles.reference}>
      <ScalarReference />
    </div>
  );
}
