// Shared by the pages: JSON requests that turn a server's refusal into a readable Error.
"use strict";

async function request(method, url, body) {
  const options = { method: method, headers: {} };
  if (body !== undefined) {
    options.body = typeof body === "string" ? body : JSON.stringify(body);
    options.headers["Content-Type"] = "application/json";
  }
  const response = await fetch(url, options);
  let data = null;
  try { data = await response.json(); } catch (e) { data = null; }
  if (!response.ok) {
    const error = new Error(data && data.error ? data.error : `${response.status} ${response.statusText}`);
    error.status = response.status;
    throw error;
  }
  return data;
}

function element(tag, text, attributes) {
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = text;
  for (const [key, value] of Object.entries(attributes || {})) node.setAttribute(key, value);
  return node;
}
