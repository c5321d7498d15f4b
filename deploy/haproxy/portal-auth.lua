-- Forward auth for HAProxy (docs/forward-auth.md, "HAProxy"): two actions for `http-request`.
--
--   lua-load /etc/haproxy/portal-auth.lua          (in `global`)
--   http-request lua.portal-auth <verify URL> <host>
--   http-request lua.portal-remove-cookie
--
-- `portal-auth` asks the portal's GET /api/auth/v1/verify about the request, with a request of its
-- own: the client's credentials (Cookie, Authorization) and what tells a page from a script
-- (Accept, X-Requested-With, User-Agent), and the original URL in X-Forwarded-Proto, -Host, -Uri
-- and -Method, built only from what the client cannot choose: the scheme of the connection, the
-- <host> written into the configuration (never the client's Host header), and the path and
-- query HAProxy routes. Nothing else of the client reaches the portal (no X-Original-URL, no
-- X-Forwarded-* of its own). On 200 it replaces the client's Remote-* headers with the portal's
-- answer; otherwise it answers the client itself: the portal's 302 or 401 with their Location
-- (the login screen), a 403 with a Location as a 302 to the portal's denied page, any other
-- refusal with the portal's status, and 503 when the portal cannot be asked. The request then
-- never reaches the app.
--
-- `portal-remove-cookie` removes the portal's `accesstoken` cookie from the Cookie header(s),
-- every one of them, and keeps the app's own cookies as they were sent.

local PASSED = { 'cookie', 'authorization', 'accept', 'x-requested-with', 'user-agent' }
local TIMEOUT_MS = 10000

-- The values of a header table from req_get_headers() or the HTTP client (indexed from 0 or 1).
local function values_of(list)
  local out = {}
  if list == nil then return out end
  if type(list) == 'string' then return { list } end
  local i = list[0] ~= nil and 0 or 1
  while list[i] ~= nil do
    out[#out + 1] = list[i]
    i = i + 1
  end
  return out
end

local function first(list)
  return values_of(list)[1]
end

local function refuse(txn, status, location, body, content_type)
  local reply = txn:reply()
  reply:set_status(status)
  reply:add_header('cache-control', 'no-store')
  if location then reply:add_header('location', location) end
  if body and body ~= '' then
    reply:add_header('content-type', content_type or 'application/json')
    reply:set_body(body)
  end
  txn:done(reply)
end

core.register_action('portal-auth', { 'http-req' }, function(txn, verify_url, host)
  local request = txn.http:req_get_headers()
  local headers = {}
  for _, name in ipairs(PASSED) do
    local list = values_of(request[name])
    if #list > 0 then headers[name] = { table.concat(list, name == 'cookie' and '; ' or ', ') } end
  end
  local tls = txn.f:ssl_fc()
  headers['x-forwarded-proto'] = { (tls == true or tls == 1) and 'https' or 'http' }
  headers['x-forwarded-host'] = { host }
  headers['x-forwarded-uri'] = { txn.f:pathq() or '/' }
  headers['x-forwarded-method'] = { txn.f:method() }
  headers['x-forwarded-for'] = { txn.f:src() }

  local ok, response = pcall(function()
    return core.httpclient():get({ url = verify_url, headers = headers, timeout = TIMEOUT_MS })
  end)
  local status = ok and response and tonumber(response.status) or 0
  if status == 200 then
    -- Identity only from the portal: every Remote-* header the client sent goes first.
    for name in pairs(request) do
      if string.sub(string.lower(name), 1, 7) == 'remote-' then txn.http:req_del_header(name) end
    end
    for name, list in pairs(response.headers or {}) do
      if string.sub(string.lower(name), 1, 7) == 'remote-' then txn.http:req_set_header(name, first(list)) end
    end
    return
  end
  if status == 0 then return refuse(txn, 503, nil, nil) end
  local rheaders = response.headers or {}
  local location = first(rheaders['location'])
  if status == 403 and location then return refuse(txn, 302, location, nil) end
  if status == 302 or status == 401 or status == 403 or (status >= 400 and status < 600) then
    return refuse(txn, status, location, response.body, first(rheaders['content-type']))
  end
  return refuse(txn, 500, nil, nil)
end, 2)

-- The cookie list without `accesstoken`, each remaining cookie as it was sent.
local function without_portal_cookie(value)
  local kept = {}
  for piece in string.gmatch(value .. ';', '([^;]*);') do
    local name = string.match(piece, '^%s*([^=]*)')
    if string.match(name, '^(.-)%s*$') ~= 'accesstoken' and string.match(piece, '%S') then kept[#kept + 1] = piece end
  end
  return (string.gsub(table.concat(kept, ';'), '^%s+', ''))
end

core.register_action('portal-remove-cookie', { 'http-req' }, function(txn)
  local list = values_of(txn.http:req_get_headers()['cookie'])
  if #list == 0 then return end
  local kept = {}
  for _, value in ipairs(list) do
    local rest = without_portal_cookie(value)
    if rest ~= '' then kept[#kept + 1] = rest end
  end
  if #kept == 0 then
    txn.http:req_del_header('cookie')
  else
    txn.http:req_set_header('cookie', table.concat(kept, '; '))
  end
end, 0)
