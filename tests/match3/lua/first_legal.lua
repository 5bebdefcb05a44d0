-- A CodeAbbey 370 player in Lua, for the referee's tests: the first swap (scanning rows from the
-- top, R before D) that makes a line of three.
local function at(board, r, c)
  return string.sub(board[r], c, c)
end

local function in_line(board, n, r, c)
  local j = at(board, r, c)
  local h, v = 1, 1
  local k = c - 1
  while k >= 1 and at(board, r, k) == j do h = h + 1; k = k - 1 end
  k = c + 1
  while k <= n and at(board, r, k) == j do h = h + 1; k = k + 1 end
  k = r - 1
  while k >= 1 and at(board, k, c) == j do v = v + 1; k = k - 1 end
  k = r + 1
  while k <= n and at(board, k, c) == j do v = v + 1; k = k + 1 end
  return h >= 3 or v >= 3
end

local function swapped(board, r1, c1, r2, c2)
  local copy = {}
  for i = 1, #board do copy[i] = board[i] end
  local a, b = at(board, r1, c1), at(board, r2, c2)
  copy[r1] = string.sub(copy[r1], 1, c1 - 1) .. b .. string.sub(copy[r1], c1 + 1)
  copy[r2] = string.sub(copy[r2], 1, c2 - 1) .. a .. string.sub(copy[r2], c2 + 1)
  return copy
end

function suggest(board, boardNo, move, elapsed)
  local n = #board
  for r = 1, n do
    for c = 1, n do
      if c < n then
        local b = swapped(board, r, c, r, c + 1)
        if in_line(b, n, r, c) or in_line(b, n, r, c + 1) then return c, r, "R" end
      end
      if r < n then
        local b = swapped(board, r, c, r + 1, c)
        if in_line(b, n, r, c) or in_line(b, n, r + 1, c) then return c, r, "D" end
      end
    end
  end
  return 1, 1, "Q"
end
